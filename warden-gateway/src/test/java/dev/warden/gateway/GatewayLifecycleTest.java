package dev.warden.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.incident.IncidentSink;
import dev.warden.core.jsonrpc.JsonRpcError;
import dev.warden.core.transport.InMemoryTransport;
import dev.warden.core.transport.Transport;
import dev.warden.gateway.config.Upstream;
import dev.warden.server.McpServer;
import dev.warden.server.ToolResult;
import dev.warden.server.ToolSpec;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The gateway settles a connection's terms as the SDK's server does (core's ServerHandshake):
 * once. A second {@code initialize} is refused with -32600 under its own id, and the connection
 * keeps the terms it has.
 */
class GatewayLifecycleTest {

    private final McpServer upstream = McpServer.builder("plain", "1.0.0").incidents(IncidentSink.all())
            .tool(ToolSpec.builder("hello").handler(call -> ToolResult.text("hi")).build()).build();
    private final Gateway gateway = Gateway.builder().incidents(IncidentSink.all())
            .upstream(Upstream.of("plain", () -> {
                InMemoryTransport.Pair pair = InMemoryTransport.pair();
                upstream.connect(pair.right());
                return pair.left();
            })).build();
    private final BlockingQueue<JsonNode> received = new LinkedBlockingQueue<>();

    @AfterEach
    void stop() {
        gateway.close();
    }

    private JsonNode answer() throws InterruptedException {
        JsonNode frame = received.poll(30, TimeUnit.SECONDS);
        assertThat(frame).as("an answer").isNotNull();
        return frame;
    }

    private static String initialize(int id, String version) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"initialize\",\"params\":{\"protocolVersion\":\""
                + version + "\",\"capabilities\":{},\"clientInfo\":{\"name\":\"c\",\"version\":\"1\"}}}";
    }

    @Test
    void aSecondInitializeIsRefusedAndTheConnectionKeepsItsTerms() throws Exception {
        Transport t = RawFrames.open(gateway::connect, received);
        t.send(initialize(1, "2025-06-18"));
        assertThat(answer().at("/result/protocolVersion").asString()).isEqualTo("2025-06-18");
        t.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");

        t.send(initialize(2, "2025-11-25"));
        JsonNode second = answer();
        assertThat(second.path("id").asInt()).isEqualTo(2);
        assertThat(second.at("/error/code").asInt()).isEqualTo(JsonRpcError.INVALID_REQUEST);
        assertThat(second.has("result")).isFalse();

        t.send("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"hello\",\"arguments\":{}}}");
        JsonNode call = answer();
        assertThat(call.path("id").asInt()).isEqualTo(3);
        assertThat(call.at("/result/content/0/text").asString()).isEqualTo("hi");
    }
}
