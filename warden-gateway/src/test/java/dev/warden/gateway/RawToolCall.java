package dev.warden.gateway;

import dev.warden.client.McpClient;
import dev.warden.core.json.Json;
import tools.jackson.databind.JsonNode;

/**
 * A {@code tools/call} sent as it is, without the {@code tools/list} a client makes before its
 * first call of a tool: for tests that count what spends a client's rate (a listing spends one too).
 */
record RawToolCall(JsonNode result) {

    static RawToolCall of(McpClient client, String tool) {
        return new RawToolCall(client.request("tools/call", Json.object().put("name", tool)
                .set("arguments", Json.object())));
    }

    boolean isError() {
        return result.path("isError").asBoolean(false);
    }

    /** The result's JSON, where a refusal's code and wait are read. */
    String text() {
        return result.toString();
    }
}
