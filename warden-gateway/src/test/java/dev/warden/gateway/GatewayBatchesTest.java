package dev.warden.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.error.ProtocolException;
import dev.warden.core.incident.IncidentSink;
import dev.warden.core.json.Json;
import dev.warden.core.transport.InMemoryTransport;
import dev.warden.core.transport.Transport;
import dev.warden.gateway.config.Upstream;
import dev.warden.server.McpServer;
import dev.warden.server.ToolResult;
import dev.warden.server.ToolSpec;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * A client of the gateway on a version with JSON-RPC batches (2024-11-05, 2025-03-26) has its batch
 * answered, each request once with its own id, the calls going upstream one by one; on a version
 * without them (2025-06-18 on) the batch is refused as an invalid request. The gateway negotiates
 * as the SDK's server does.
 */
class GatewayBatchesTest {

    private final AtomicInteger upstreamCalls = new AtomicInteger();
    private final BlockingQueue<String> received = new LinkedBlockingQueue<>();
    private Gateway gateway;
    private InMemoryTransport client;

    @BeforeEach
    void start() {
        McpServer upstream = McpServer.builder("echoing", "1.0.0").incidents(IncidentSink.all())
                .tool(ToolSpec.builder("echo").handler(call -> {
                    upstreamCalls.incrementAndGet();
                    return ToolResult.text(call.arguments().path("text").asString(""));
                }).build())
                .build();
        gateway = Gateway.builder().upstream(Upstream.of("echoing", () -> {
            InMemoryTransport.Pair pair = InMemoryTransport.pair();
            upstream.connect(pair.right());
            return pair.left();
        })).incidents(IncidentSink.all()).build();
        InMemoryTransport.Pair pair = InMemoryTransport.pair();
        gateway.connect(pair.right());
        client = pair.left();
        client.start(new Transport.Listener() {
            @Override
            public void onFrame(byte[] frame) {
                received.add(new String(frame, StandardCharsets.UTF_8));
            }

            @Override
            public void onFrameError(ProtocolException refusal) {
            }

            @Override
            public void onClose() {
            }
        });
    }

    @AfterEach
    void stop() {
        client.close();
        gateway.close();
    }

    /** The next answer (a response, or a batch of them); notifications the gateway sends meanwhile are passed over. */
    private JsonNode next() throws InterruptedException {
        while (true) {
            String frame = received.poll(20, TimeUnit.SECONDS);
            assertThat(frame).as("an answer from the gateway").isNotNull();
            JsonNode message = Json.mapper().readTree(frame);
            if (message.isArray() || !message.has("method")) {
                return message;
            }
        }
    }

    private void initialize(String version) throws InterruptedException {
        client.send("""
                {"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"%s",\
                "capabilities":{},"clientInfo":{"name":"c","version":"1"}}}""".formatted(version));
        assertThat(next().at("/result/protocolVersion").asString()).isEqualTo(version);
        client.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
    }

    private static final String BATCH = """
            [{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"one"}}},\
            {"jsonrpc":"2.0","method":"notifications/roots/list_changed"},\
            {"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"two"}}}]""";

    private static List<String> texts(JsonNode batch) {
        List<String> texts = new ArrayList<>();
        batch.forEach(a -> texts.add(a.get("id").asInt() + ":" + a.at("/result/content/0/text").asString()));
        return texts;
    }

    @Test
    void aBatchFromAMarch2025ClientIsAnsweredEachRequestOnceWithTheCallsGoingUpstreamOneByOne() throws Exception {
        initialize("2025-03-26");

        client.send(BATCH);

        JsonNode answer = next();
        assertThat(answer.isArray()).as("a batch response: " + answer).isTrue();
        assertThat(texts(answer)).containsExactlyInAnyOrder("1:one", "2:two");
        assertThat(upstreamCalls).hasValue(2);
    }

    @Test
    void aBatchFromANovember2024ClientIsAnsweredToo() throws Exception {
        initialize("2024-11-05");

        client.send(BATCH);

        assertThat(texts(next())).containsExactlyInAnyOrder("1:one", "2:two");
    }

    @Test
    void aBatchFromAJune2025ClientIsRefusedAsAnInvalidRequest() throws Exception {
        initialize("2025-06-18");

        client.send(BATCH);

        JsonNode answer = next();
        assertThat(answer.at("/error/code").asInt()).isEqualTo(-32600);
        assertThat(upstreamCalls).hasValue(0);
    }
}
