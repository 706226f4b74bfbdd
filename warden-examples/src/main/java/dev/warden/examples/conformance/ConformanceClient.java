package dev.warden.examples.conformance;

import dev.warden.client.McpClient;
import dev.warden.client.auth.OAuth;
import dev.warden.client.auth.UserAgent;
import dev.warden.core.json.Json;
import dev.warden.core.mcp.Tools;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
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

    /** The client metadata document URL the suite's CIMD scenario expects as the client id. */
    static final URI CLIENT_METADATA_URL = URI.create("https://conformance-test.local/client-metadata.json");

    /**
     * Runs the scenario against {@code serverUrl}; returns normally when it went through.
     *
     * @param context the suite's {@code MCP_CONFORMANCE_CONTEXT} (pre-registered credentials, say)
     */
    public static void run(URI serverUrl, String scenario, Optional<String> context) {
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
        try (McpClient client = builder.connect(scenario.startsWith("auth/")
                ? McpClient.http(serverUrl, oauth(context)) : McpClient.http(serverUrl))) {
            if (!client.serverCapabilities().has("tools")) {
                return;
            }
            List<Tools.Tool> tools = client.listTools();
            JsonNode given = context.map(json -> Json.mapper().readTree(json).path("toolCalls"))
                    .orElse(Json.mapper().missingNode());
            if (given.isArray() && !given.isEmpty()) {
                // The scenario names its calls (arguments chosen to exercise header encoding, say).
                for (JsonNode call : given) {
                    JsonNode args = call.path("arguments");
                    client.callTool(call.path("name").asString(""), args instanceof ObjectNode o ? o : Json.object());
                }
                return;
            }
            for (Tools.Tool tool : tools) {
                client.callTool(tool.name(), argumentsFor(tool.inputSchema()));
            }
        }
    }

    /**
     * OAuth as a headless client: the suite's authorization server approves without a user, so
     * the user agent follows its redirect. Pre-registered credentials come from the context.
     */
    static OAuth oauth(Optional<String> context) {
        OAuth.Builder oauth = OAuth.builder()
                .clientName("warden-conformance-client")
                .redirectUri(URI.create("http://localhost:3000/callback"))
                .clientMetadataUrl(CLIENT_METADATA_URL)
                .userAgent(UserAgent.headless());
        context.map(json -> Json.mapper().readTree(json)).ifPresent(ctx -> {
            String id = ctx.path("client_id").asString("");
            String secret = ctx.path("client_secret").asString("");
            if (!id.isEmpty()) {
                if (secret.isEmpty()) {
                    oauth.client(id);
                } else {
                    oauth.client(id, secret);
                }
            }
        });
        return oauth.build();
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
