package dev.warden.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import dev.warden.telemetry.McpNames;
import dev.warden.telemetry.McpTelemetry;
import dev.warden.testkit.otel.InMemoryTelemetry;
import io.opentelemetry.api.trace.SpanKind;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The SDK server names a span and {@code gen_ai.tool.name} by a tool only when it registered that
 * tool: a name a caller made up (up to 256 characters) is in no span name or attribute.
 */
class ServerSpanNamesTest {

    private final InMemoryTelemetry traces = new InMemoryTelemetry();
    private final McpServer server = McpServer.builder("crm", "1.0.0").telemetry(McpTelemetry.of(traces.sdk()))
            .tool(ToolSpec.builder("lookup").handler(c -> ToolResult.text("found")).build())
            .build();

    @AfterEach
    void close() {
        traces.close();
    }

    @Test
    void aRegisteredToolNamesItsSpan() throws Exception {
        TestClient.initialized(server).callTool("lookup", Json.object());

        assertThat(traces.only(SpanKind.SERVER, "tools/call lookup").getAttributes().get(McpNames.GEN_AI_TOOL_NAME))
                .isEqualTo("lookup");
    }

    @Test
    void aNameTheCallerMadeUpIsInNoSpan() throws Exception {
        String madeUp = "y".repeat(250) + "canary";
        TestClient.initialized(server).callTool(madeUp, Json.object());

        assertThat(traces.only(SpanKind.SERVER, "tools/call").getAttributes().get(McpNames.GEN_AI_TOOL_NAME)).isNull();
        assertThat(traces.spans()).allSatisfy(span -> assertThat(InMemoryTelemetry.everything(span))
                .doesNotContain(madeUp));
    }
}
