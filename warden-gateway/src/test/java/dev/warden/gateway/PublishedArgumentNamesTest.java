package dev.warden.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.client.McpClient;
import dev.warden.client.ReconnectPolicy;
import dev.warden.client.ToolCallResult;
import dev.warden.core.incident.IncidentSink;
import dev.warden.core.json.Json;
import dev.warden.core.mcp.ProtocolVersion;
import dev.warden.core.transport.InMemoryTransport;
import dev.warden.gateway.config.Upstream;
import dev.warden.server.McpServer;
import dev.warden.server.ToolResult;
import dev.warden.server.ToolSpec;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * A required argument the caller left out is still its own field: desktop-commander's zod answer
 * for a missing {@code timeout_ms} (the untuned suite's held-out run, as the server sent it) names
 * the field the tool's schema published, and its name is no timeout.
 */
class PublishedArgumentNamesTest {

    static final String ZOD_MISSING_TIMEOUT_MS = "Error: [\n  {\n    \"code\": \"invalid_type\",\n    \"expected\": "
            + "\"number\",\n    \"received\": \"undefined\",\n    \"path\": [\n      \"timeout_ms\"\n    ],\n"
            + "    \"message\": \"Required\"\n  }\n]";

    @Test
    void aMissingRequiredFieldNamedTimeoutMsIsAValidationErrorNotATimeout() {
        McpServer server = McpServer.builder("commander", "1.0.0").incidents(IncidentSink.all())
                .tool(ToolSpec.builder("start_process").inputSchema("{\"type\":\"object\",\"properties\":{"
                        + "\"command\":{\"type\":\"string\"},\"timeout_ms\":{\"type\":\"number\"}}}")
                        .handler(c -> ToolResult.text("never")).build())
                .build();
        Upstream u = Upstream.builder("commander", () -> {
            InMemoryTransport.Pair pair = InMemoryTransport.pair();
            server.connect(pair.right());
            return new AnsweringCalls(pair.left(),
                    Map.of("start_process", a -> AnsweringCalls.toolError(ZOD_MISSING_TIMEOUT_MS)), new AtomicInteger());
        }).reconnect(ReconnectPolicy.none()).build();
        try (Gateway gateway = Gateway.builder().upstream(u).build();
             McpClient client = McpClient.builder("model", "1").protocolVersion(ProtocolVersion.latestSessionBased())
                     .connect(ViaGateway.to(gateway))) {
            client.listTools();
            ToolCallResult result = client.callTool("start_process", Json.object().put("command", "ls"));

            JsonNode error = Json.mapper().readTree(result.text()).get("error");
            assertThat(error.get("code").asString()).as(result.text()).isEqualTo("VALIDATION_ERROR");
            assertThat(error.get("retryable").asBoolean()).isFalse();
        }
    }
}
