package dev.warden.examples.conformance;

import dev.warden.client.McpClient;
import dev.warden.core.json.Json;
import dev.warden.core.mcp.Tools;
import java.net.URI;
import java.time.Duration;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The conformance client: what {@code @modelcontextprotocol/conformance client --command …} runs
 * for each scenario (named by {@code MCP_CONFORMANCE_SCENARIO}), built with {@code warden-client}.
 * It connects to the scenario's server, lists the tools and calls each one with arguments made
 * from its input schema, accepting any elicitation (defaults filled in by the client) and
 * answering any sampling request.
 */
public final class ConformanceClient {

    private ConformanceClient() {
    }

    /** Runs the scenario against {@code serverUrl}; returns normally when it went through. */
    public static void run(URI serverUrl, String scenario) {
        McpClient.Builder builder = McpClient.builder("warden-conformance-client", "1.0.0")
                .requestTimeout(Duration.ofSeconds(30))
                .onElicitation(params -> {
                    ObjectNode accept = Json.object();
                    accept.put("action", "accept");
                    accept.putObject("content");
                    return accept;
                })
                .onSampling(params -> {
                    ObjectNode result = Json.object();
                    result.put("role", "assistant");
                    result.putObject("content").put("type", "text").put("text", "A conformance answer.");
                    result.put("model", "warden-conformance");
                    result.put("stopReason", "endTurn");
                    return result;
                });
        try (McpClient client = builder.connect(McpClient.http(serverUrl))) {
            if (!client.serverCapabilities().has("tools")) {
                return;
            }
            for (Tools.Tool tool : client.listTools()) {
                client.callTool(tool.name(), argumentsFor(tool.inputSchema()));
            }
        }
    }

    /** Arguments that satisfy a simple schema: numbers 1, strings "test", booleans true. */
    static ObjectNode argumentsFor(ObjectNode schema) {
        ObjectNode args = Json.object();
        JsonNode properties = schema.path("properties");
        JsonNode required = schema.path("required");
        if (!properties.isObject() || !required.isArray()) {
            return args;
        }
        for (JsonNode name : required) {
            JsonNode property = properties.path(name.asString(""));
            switch (property.path("type").asString("string")) {
                case "number", "integer" -> args.put(name.asString(), 1);
                case "boolean" -> args.put(name.asString(), true);
                case "object" -> args.putObject(name.asString());
                case "array" -> args.putArray(name.asString());
                default -> args.put(name.asString(), "test");
            }
        }
        return args;
    }

}
