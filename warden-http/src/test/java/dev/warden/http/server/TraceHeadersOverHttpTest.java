package dev.warden.http.server;

import static dev.warden.testkit.otel.InMemoryTelemetry.SPAN;
import static dev.warden.testkit.otel.InMemoryTelemetry.TRACE;
import static dev.warden.testkit.otel.InMemoryTelemetry.TRACEPARENT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.incident.IncidentSink;
import dev.warden.server.McpServer;
import dev.warden.server.ToolResult;
import dev.warden.server.ToolSpec;
import dev.warden.telemetry.McpTelemetry;
import dev.warden.testkit.otel.InMemoryTelemetry;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.net.http.HttpResponse;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A server on Warden's SDK continues its caller's trace from the W3C headers of the POST that
 * carried each request, when the request's {@code _meta} names no context: in a session as for a
 * stateless request, through the one per-message lookup of the session's telemetry.
 */
class TraceHeadersOverHttpTest {

    private final InMemoryTelemetry traces = new InMemoryTelemetry();
    private final McpTelemetry telemetry = McpTelemetry.of(traces.sdk());
    private McpHttpServer http;
    private HttpPeer peer;

    @BeforeEach
    void start() throws Exception {
        McpServer server = McpServer.builder("traced", "1.0.0").incidents(IncidentSink.all())
                .telemetry(telemetry)
                .tool(ToolSpec.builder("echo").handler(call -> ToolResult.text("echoed")).build())
                .build();
        http = McpHttpServer.builder().onSession(server::connect).build().start();
        peer = new HttpPeer(http.endpoint());
    }

    @AfterEach
    void stop() {
        HttpPeer.closeAll();
        http.close();
        traces.close();
    }

    private SpanData serverSpan(String name) {
        List<SpanData> found = traces.spans().stream()
                .filter(s -> s.getKind() == SpanKind.SERVER && s.getName().equals(name)).toList();
        assertThat(found).as("SERVER spans named %s among %s", name, traces.spans()).hasSize(1);
        return found.get(0);
    }

    @Test
    void aTraceparentHeaderParentsTheServersSpanOfARequestInASession() throws Exception {
        String session = peer.initialize();
        Map<String, String> headers = new HashMap<>(HttpPeer.sessionHeaders(session));
        headers.put("traceparent", TRACEPARENT);
        HttpResponse<String> answer = peer.send(peer.post(
                "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\"}}", headers));
        assertThat(answer.statusCode()).isEqualTo(200);
        assertThat(answer.body()).contains("echoed");

        SpanData call = serverSpan("tools/call echo");
        assertThat(call.getTraceId()).isEqualTo(TRACE);
        assertThat(call.getParentSpanId()).isEqualTo(SPAN);
        // The POST without trace headers (initialize) starts a trace of its own.
        assertThat(serverSpan("initialize").getTraceId()).isNotEqualTo(TRACE);
    }

    @Test
    void aTraceparentHeaderParentsTheServersSpanOfAStatelessRequest() throws Exception {
        Map<String, String> headers = new HashMap<>(HttpPeer.jsonHeaders());
        headers.put("MCP-Protocol-Version", "2026-07-28");
        headers.put("Mcp-Method", "tools/call");
        headers.put("Mcp-Name", "echo");
        headers.put("traceparent", TRACEPARENT);
        HttpResponse<String> answer = peer.send(peer.post("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\","
                + "\"params\":{\"name\":\"echo\",\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
                + "\"io.modelcontextprotocol/clientCapabilities\":{}}}}", headers));
        assertThat(answer.statusCode()).isEqualTo(200);

        SpanData call = serverSpan("tools/call echo");
        assertThat(call.getTraceId()).isEqualTo(TRACE);
        assertThat(call.getParentSpanId()).isEqualTo(SPAN);
    }
}
