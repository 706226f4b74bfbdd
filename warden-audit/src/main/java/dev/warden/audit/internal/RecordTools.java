package dev.warden.audit.internal;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * Which tools the authorization probes use: a record tool takes the identifier of one record (a
 * property named {@code id}, {@code note_id}, {@code orderId}, {@code uuid}); a baseline tool needs
 * no argument at all (a listing, a whoami), so each caller's answer tells which records are its own.
 * Only tools the audit may call are given here (destructive ones only with --allow-destructive).
 */
public final class RecordTools {

    /** Tools of each kind used at most: the probes stay a small part of the budget. */
    public static final int MAX_TOOLS = 5;
    private static final Set<String> ID_WORDS = Set.of("id", "uuid", "guid");
    private static final Set<String> BASELINE_WORDS = Set.of("list", "whoami", "me", "my", "mine", "profile",
            "account", "current", "search", "all", "recent", "inbox");
    private static final Set<String> TOKEN_WORDS = Set.of("token", "session", "jwt", "bearer");

    private RecordTools() {
    }

    /** The property that names a record, required ones first; empty for a tool that takes none. */
    public static Optional<String> idProperty(JsonNode tool) {
        JsonNode schema = tool.path("inputSchema");
        List<String> candidates = new ArrayList<>();
        for (JsonNode required : schema.path("required")) {
            candidates.add(required.asString(""));
        }
        schema.path("properties").propertyNames().forEach(candidates::add);
        for (String property : candidates) {
            List<String> words = ToolNames.words(property);
            String type = schema.path("properties").path(property).path("type").asString("string");
            if (!words.isEmpty() && ID_WORDS.contains(words.get(words.size() - 1))
                    && Set.of("string", "integer", "number").contains(type)) {
                return Optional.of(property);
            }
        }
        return Optional.empty();
    }

    /** The tools that take a record's identifier. */
    public static List<JsonNode> records(List<JsonNode> callable) {
        return callable.stream().filter(t -> idProperty(t).isPresent()).limit(MAX_TOOLS).toList();
    }

    /**
     * The tools that need no argument, those whose names say they list or say who the caller is
     * first: their answers are each caller's own view.
     */
    public static List<JsonNode> baselines(List<JsonNode> callable) {
        return callable.stream()
                .filter(t -> t.path("inputSchema").path("required").isEmpty() && idProperty(t).isEmpty()
                        && ToolNames.login(t).isEmpty())
                .sorted(Comparator.comparing(t -> ToolNames.words(t.path("name").asString("")).stream()
                        .noneMatch(BASELINE_WORDS::contains)))
                .limit(MAX_TOOLS).toList();
    }

    /** The property a tool takes a session token in (one a login tool gave), when it has one. */
    public static Optional<String> tokenProperty(JsonNode tool) {
        return tool.path("inputSchema").path("properties").propertyNames().stream()
                .filter(p -> ToolNames.words(p).stream().anyMatch(TOKEN_WORDS::contains)).findFirst();
    }
}
