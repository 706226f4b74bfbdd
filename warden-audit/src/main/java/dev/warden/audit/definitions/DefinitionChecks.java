package dev.warden.audit.definitions;

import dev.warden.audit.AuditCheck;
import dev.warden.audit.AuditContext;
import dev.warden.audit.Evidence;
import dev.warden.audit.Finding;
import dev.warden.audit.Rule;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * What a server's definitions say about whether its tools can be trusted, read without calling
 * anything: instructions aimed at the model (tool poisoning), hidden Unicode, names that shadow
 * other servers' tools or repeat within the server, names that imitate well-known ones, and tools that change things without saying
 * so. Pure functions of the listed JSON; each finding's location is a JSON pointer into the list
 * result ({@code definition:/tools/3/description}) and its evidence a category and a fingerprint,
 * never the text.
 */
public final class DefinitionChecks implements AuditCheck {

    private DefinitionChecks() {
    }

    /** The checks, as an audit runs them. */
    public static DefinitionChecks of() {
        return new DefinitionChecks();
    }

    @Override
    public List<Finding> check(AuditContext context) {
        return all(Definitions.of(context));
    }

    @Override
    public String name() {
        return "definitions";
    }

    /** Every definition check's findings, in the order of the checks below. */
    public static List<Finding> all(Definitions d) {
        List<Finding> all = new ArrayList<>();
        all.addAll(poisoning(d));
        all.addAll(hiddenUnicode(d));
        all.addAll(shadowing(d));
        all.addAll(lookalikes(d));
        all.addAll(destructiveWithoutAnnotation(d));
        return List.copyOf(all);
    }

    /**
     * {@link Rule#TOOL_POISONING}: a string of a definition, or the server's instructions, that
     * instructs the model ({@link PoisoningPhrases}). One finding per string.
     *
     * <p>The sanitizer's prompt-injection detector is not used here: it is made for error text,
     * where "use the … tool" is an attack; in a tool's own description it is the norm (the official
     * filesystem and sequential-thinking servers say it), and every official server would be flagged.
     */
    public static List<Finding> poisoning(Definitions d) {
        List<Finding> out = new ArrayList<>();
        Strings.each(d, s -> {
            if (s.isKey()) {
                return;
            }
            PoisoningPhrases.reason(s.text()).ifPresent(r -> out.add(new Finding(Rule.TOOL_POISONING, s.owner(), "definitions listed",
                    s.location(), "The text " + r + ".", Optional.of(Evidence.of("injection", s.text())))));
        });
        return out;
    }

    /**
     * {@link Rule#HIDDEN_UNICODE}: a name, property name or string of a definition holding
     * zero-width, bidirectional-control, tag or other format characters. Evidence: the category
     * and the string's fingerprint.
     */
    public static List<Finding> hiddenUnicode(Definitions d) {
        List<Finding> out = new ArrayList<>();
        Strings.each(d, s -> {
            HiddenCharacters.Hidden hidden = HiddenCharacters.scan(s.text());
            if (hidden != null) {
                out.add(new Finding(Rule.HIDDEN_UNICODE, s.owner(), "definitions listed", s.location(),
                        "The " + (s.isKey() ? "property name" : "text") + " holds " + hidden.count() + " invisible "
                                + "or direction-changing character(s), the worst a " + hidden.category() + ".",
                        Optional.of(Evidence.of(hidden.category(), s.text()))));
            }
        });
        return out;
    }

    /**
     * {@link Rule#NAME_SHADOWING}: a tool named as a well-known tool of another server, and a tool
     * or prompt whose name the server lists more than once (the later listing is reported).
     */
    public static List<Finding> shadowing(Definitions d) {
        List<Finding> out = new ArrayList<>();
        for (int i = 0; i < d.tools().size(); i++) {
            String name = d.tools().get(i).path("name").asString("");
            int index = i;
            WellKnownTools.shadowed(name, d.server()).ifPresent(known -> out.add(new Finding(Rule.NAME_SHADOWING,
                    Optional.of(Visible.of(name)), "definitions listed", "definition:/tools/" + index + "/name",
                    "The tool's name is that of a well-known tool (" + known + ") of another server.",
                    Optional.empty())));
        }
        duplicates(d.tools(), "tools", out);
        duplicates(d.prompts(), "prompts", out);
        return out;
    }

    /**
     * {@link Rule#LOOKALIKE_NAME}: the server's name, or a tool's, a slip away from a well-known
     * server's or tool's ({@link Lookalikes}); the very name is not one.
     */
    public static List<Finding> lookalikes(Definitions d) {
        List<Finding> out = new ArrayList<>();
        d.server().ifPresent(server -> Lookalikes.server(server).ifPresent(known -> out.add(new Finding(
                Rule.LOOKALIKE_NAME, Optional.empty(), "definitions listed", "definition:/serverInfo/name",
                "The server's name (" + Visible.of(server) + ") is a slip away from that of the well-known "
                        + known + " server.", Optional.empty()))));
        for (int i = 0; i < d.tools().size(); i++) {
            String name = d.tools().get(i).path("name").asString("");
            int index = i;
            Lookalikes.tool(name).ifPresent(known -> out.add(new Finding(Rule.LOOKALIKE_NAME,
                    Optional.of(Visible.of(name)), "definitions listed", "definition:/tools/" + index + "/name",
                    "The tool's name is a slip away from a well-known tool's (" + known + ").", Optional.empty())));
        }
        return out;
    }

    private static void duplicates(List<JsonNode> items, String field, List<Finding> out) {
        Map<String, Integer> first = new HashMap<>();
        for (int i = 0; i < items.size(); i++) {
            String name = items.get(i).path("name").asString("");
            Integer earlier = first.putIfAbsent(name, i);
            if (earlier != null) {
                out.add(new Finding(Rule.NAME_SHADOWING, Optional.of(Visible.of(name)), "definitions listed",
                        "definition:/" + field + "/" + i + "/name", "The server lists this name twice (also at /"
                                + field + "/" + earlier + "); a client calls one of them, not knowing which.",
                        Optional.empty()));
            }
        }
    }

    /**
     * {@link Rule#DESTRUCTIVE_WITHOUT_ANNOTATION}: a tool whose name says it writes, deletes, sends
     * or pays (a word of it, split on {@code _ - .} and camelCase) and which declares neither
     * {@code annotations.destructiveHint} nor {@code annotations.readOnlyHint}.
     */
    public static List<Finding> destructiveWithoutAnnotation(Definitions d) {
        List<Finding> out = new ArrayList<>();
        for (int i = 0; i < d.tools().size(); i++) {
            JsonNode tool = d.tools().get(i);
            String name = tool.path("name").asString("");
            JsonNode annotations = tool.path("annotations");
            boolean declared = annotations.path("destructiveHint").isBoolean()
                    || annotations.path("readOnlyHint").isBoolean();
            Optional<String> word = NameParts.destructive(name);
            if (word.isPresent() && !declared) {
                out.add(new Finding(Rule.DESTRUCTIVE_WITHOUT_ANNOTATION, Optional.of(Visible.of(name)),
                        "definitions listed", "definition:/tools/" + i,
                        "The name says the tool may " + word.get() + ", and it declares neither destructiveHint "
                                + "nor readOnlyHint.", Optional.empty()));
            }
        }
        return out;
    }
}
