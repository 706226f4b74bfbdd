package dev.warden.audit.definitions;

import dev.warden.audit.AuditContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * What a server listed, as the definition checks read it: each item the JSON object the server
 * sent, in its order (index i is {@code /tools/i} in a {@code definition:} location).
 *
 * @param server            the {@code serverInfo.name} it initialized with, when it did
 * @param instructions      the {@code instructions} of its initialize result
 * @param tools             {@code tools/list}'s tools
 * @param resources         {@code resources/list}'s resources
 * @param resourceTemplates {@code resources/templates/list}'s templates
 * @param prompts           {@code prompts/list}'s prompts
 */
public record Definitions(Optional<String> server, Optional<String> instructions, List<JsonNode> tools,
                          List<JsonNode> resources, List<JsonNode> resourceTemplates, List<JsonNode> prompts) {

    public Definitions {
        Objects.requireNonNull(server, "server");
        Objects.requireNonNull(instructions, "instructions");
        tools = List.copyOf(tools);
        resources = List.copyOf(resources);
        resourceTemplates = List.copyOf(resourceTemplates);
        prompts = List.copyOf(prompts);
    }

    /** What an audit listed. */
    public static Definitions of(AuditContext context) {
        return new Definitions(context.server().map(s -> s.name()), context.instructions(), context.tools(),
                context.resources(), List.of(), context.prompts());
    }

    /**
     * Definitions as one JSON object holds them: {@code server.name}, {@code instructions} and the
     * arrays {@code tools}, {@code resources}, {@code resourceTemplates}, {@code prompts} (any may be
     * missing), the shape the test captures of real servers are stored in.
     */
    public static Definitions fromJson(JsonNode captured) {
        JsonNode name = captured.path("server").path("name");
        JsonNode instructions = captured.path("instructions");
        return new Definitions(name.isString() ? Optional.of(name.stringValue()) : Optional.empty(),
                instructions.isString() ? Optional.of(instructions.stringValue()) : Optional.empty(),
                items(captured, "tools"), items(captured, "resources"), items(captured, "resourceTemplates"),
                items(captured, "prompts"));
    }

    private static List<JsonNode> items(JsonNode captured, String field) {
        List<JsonNode> out = new ArrayList<>();
        captured.path(field).forEach(out::add);
        return out;
    }

    /** Each list by the field name of its result ({@code tools}, {@code resources}, …), as pins key them. */
    public java.util.Map<String, List<JsonNode>> lists() {
        java.util.Map<String, List<JsonNode>> lists = new java.util.LinkedHashMap<>();
        lists.put("tools", tools);
        lists.put("prompts", prompts);
        lists.put("resources", resources);
        lists.put("resourceTemplates", resourceTemplates);
        return lists;
    }
}
