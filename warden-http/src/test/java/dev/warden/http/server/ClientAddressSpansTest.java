package dev.warden.http.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.incident.IncidentSink;
import dev.warden.server.McpServer;
import dev.warden.server.ToolResult;
import dev.warden.server.ToolSpec;
import dev.warden.telemetry.McpNames;
import dev.warden.telemetry.McpTelemetry;
import dev.warden.testkit.otel.InMemoryTelemetry;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.net.http.HttpResponse;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A server span over HTTP says who sent the message, as the conventions name it: {@code
 * client.address} (the TCP peer), and {@code client.port} where one connection is the client's (a
 * stateless request); a session's POSTs may each come on a connection of their own, so no port.
 */
class ClientAddressSpansTest {

    private final InMemoryTelemetry traces = new InMemoryTelemetry();
    private McpHttpServer http;
    private HttpPeer peer;

    @BeforeEach
    void start() throws Exception {
        McpServer server = McpServer.builder("traced", "1.0.0").incidents(IncidentSink.all())
                .telemetry(McpTelemetry.of(traces.sdk()))
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

    @Test
    void aSessionsServerSpanNamesTheClientsAddress() throws Exception {
        String session = peer.initialize();
        HttpResponse<String> answer = peer.send(peer.post(
                "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\"}}",
                HttpPeer.sessionHeaders(session)));
        assertThat(answer.statusCode()).isEqualTo(200);

        SpanData call = traces.only(SpanKind.SERVER, "tools/call echo");
        assertThat(call.getAttributes().get(McpNames.CLIENT_ADDRESS)).isEqualTo("127.0.0.1");
        assertThat(call.getAttributes().get(McpNames.CLIENT_PORT)).isNull();
    }

    @Test
    void aStatelessRequestsServerSpanNamesTheClientsAddressAndPort() throws Exception {
        Map<String, String> headers = new HashMap<>(HttpPeer.jsonHeaders());
        headers.put("MCP-Protocol-Version", "2026-07-28");
        headers.put("Mcp-Method", "tools/call");
        headers.put("Mcp-Name", "echo");
        HttpResponse<String> answer = peer.send(peer.post("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\","
                + "\"params\":{\"name\":\"echo\",\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
                + "\"io.modelcontextprotocol/clientCapabilities\":{}}}}", headers));
        assertThat(answer.statusCode()).isEqualTo(200);

        SpanData call = traces.only(SpanKind.SERVER, "tools/call echo");
        assertThat(call.getAttributes().get(McpNames.CLIENT_ADDRESS)).isEqualTo("127.0.0.1");
        assertThat(call.getAttributes().get(McpNames.CLIENT_PORT)).isBetween(1L, 65_535L);
    }
}
