package dev.warden.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.incident.IncidentSink;
import dev.warden.core.json.Json;
import dev.warden.core.mcp.Resources;
import dev.warden.core.transport.InMemoryTransport;
import dev.warden.core.transport.Transport;
import dev.warden.gateway.config.Limits;
import dev.warden.gateway.config.Upstream;
import dev.warden.server.McpServer;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * A stateless client's {@code subscriptions/listen} costs what any request reaching an upstream
 * costs: one of the caller's rate, and at most {@value #LOOKED_AT} of its resource subscriptions
 * are looked at (each may ask the upstream), however many it names or the upstream refuses.
 */
class GatewayListenLimitsTest {

    private static final int LOOKED_AT = 1000;

    private final McpServer upstream = McpServer.builder("watching", "1.0.0").incidents(IncidentSink.all())
            .resourceSubscriptions(true)
            .resource(new Resources.Resource("test://a", "a", Optional.empty(), Optional.empty(), Optional.empty(),
                    OptionalLong.empty()), (uri, vars) -> List.of())
            .build();
    /** The {@code resources/subscribe} requests that reached the upstream's connection (each refused there). */
    private final AtomicInteger subscribes = new AtomicInteger();
    private final BlockingQueue<JsonNode> received = new LinkedBlockingQueue<>();
    private Gateway gateway;

    private Gateway.Builder builder() {
        Upstream u = Upstream.builder("watching", () -> {
            InMemoryTransport.Pair pair = InMemoryTransport.pair();
            upstream.connect(pair.right());
            Transport refusing = new RefusingMethod(new RefusingMethod(pair.left(), "server/discover",
                    "{\"code\":-32601,\"message\":\"Method not found\"}"), "resources/subscribe",
                    "{\"code\":-32602,\"message\":\"Resource not found\"}");
            return new Counting(refusing);
        }).timeout(Duration.ofSeconds(30)).build();
        return Gateway.builder().upstream(u).incidents(IncidentSink.all());
    }

    @AfterEach
    void stop() {
        gateway.close();
    }

    @Test
    void aListenSpendsTheCallersRateLikeAnyRequestReachingTheUpstream() throws Exception {
        gateway = builder().perClient(new Limits.Rate(1, Duration.ofHours(1))).build();
        Transport t = raw();
        t.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"resources/list\",\"params\":{" + envelope() + "}}");
        JsonNode listed = answer();
        assertThat(listed.has("result")).as(listed.toString()).isTrue();

        t.send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"subscriptions/listen\",\"params\":{\"notifications\":"
                + "{\"resourceSubscriptions\":[\"test://a\"]}," + envelope() + "}}");

        JsonNode refused = answer();
        assertThat(refused.path("id").asInt()).as(refused.toString()).isEqualTo(2);
        assertThat(refused.at("/error/code").asInt()).isEqualTo(-32603);
        assertThat(refused.at("/error/data/code").asString()).isEqualTo("RATE_LIMITED");
    }

    @Test
    void aListenLooksAtNoMoreThanAThousandSubscriptionsHoweverManyTheUpstreamRefuses() throws Exception {
        gateway = builder().build();
        Transport t = raw();
        StringBuilder uris = new StringBuilder();
        for (int i = 0; i < 3 * LOOKED_AT; i++) {
            uris.append(i == 0 ? "" : ",").append("\"test://item/").append(i).append('"');
        }

        t.send("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"subscriptions/listen\",\"params\":{\"notifications\":"
                + "{\"resourceSubscriptions\":[" + uris + "]}," + envelope() + "}}");

        JsonNode ack = answer();
        assertThat(ack.path("method").asString()).isEqualTo("notifications/subscriptions/acknowledged");
        assertThat(ack.at("/params/notifications/resourceSubscriptions").size()).isZero();
        assertThat(subscribes.get()).isLessThanOrEqualTo(LOOKED_AT);
    }

    private Transport raw() {
        return RawFrames.open(gateway::connect, received);
    }

    private static String envelope() {
        return "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
                + "\"io.modelcontextprotocol/clientCapabilities\":{}}";
    }

    private JsonNode answer() throws InterruptedException {
        JsonNode frame = received.poll(30, TimeUnit.SECONDS);
        assertThat(frame).as("an answer").isNotNull();
        return frame;
    }

    /** Counts the {@code resources/subscribe} requests the gateway sends the upstream. */
    private final class Counting implements Transport {
        private final Transport inner;

        Counting(Transport inner) {
            this.inner = inner;
        }

        @Override
        public void start(Listener l) {
            inner.start(l);
        }

        @Override
        public void send(String frame) {
            if (frame.contains("\"resources/subscribe\"")) {
                subscribes.incrementAndGet();
            }
            inner.send(frame);
        }

        @Override
        public void close() {
            inner.close();
        }
    }
}
