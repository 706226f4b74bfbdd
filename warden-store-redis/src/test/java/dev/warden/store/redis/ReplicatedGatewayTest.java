package dev.warden.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.client.McpClient;
import dev.warden.client.ReconnectPolicy;
import dev.warden.client.ToolCallResult;
import dev.warden.core.incident.IncidentSink;
import dev.warden.core.json.Json;
import dev.warden.core.transport.InMemoryTransport;
import dev.warden.gateway.Gateway;
import dev.warden.gateway.config.Limits;
import dev.warden.gateway.config.Upstream;
import dev.warden.server.McpServer;
import dev.warden.server.ToolResult;
import dev.warden.server.ToolSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Two gateways ("replicas", in one JVM) on one real Redis, in front of one server: a tool's breaker
 * that one opens pauses the tool on the other too, which then sends it no call; a per-tool rate
 * is counted for both together.
 */
class ReplicatedGatewayTest {

    /**
     * Opens at the second failure and stays open far longer than the test; counts the tool's own
     * errors (the opt-in), so a tool that throws opens its breaker.
     */
    private static final Limits.Breaker EAGER = new Limits.Breaker(50, 2, 4, Duration.ofHours(1), true);

    private final AtomicInteger brokenCalls = new AtomicInteger();
    private final McpServer server = McpServer.builder("db", "1.0.0").incidents(IncidentSink.all())
            .tool(ToolSpec.builder("broken").handler(c -> {
                brokenCalls.incrementAndGet();
                throw new IllegalStateException("connection pool exhausted");
            }).build())
            .tool(ToolSpec.builder("ok").handler(c -> ToolResult.text("fine")).build())
            .build();
    private Replicas replicas;
    private final List<AutoCloseable> open = new ArrayList<>();

    @BeforeEach
    void redis() throws Exception {
        replicas = new Replicas();
    }

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable c : open.reversed()) {
            c.close();
        }
        replicas.close();
    }

    private McpClient replica(Limits limits) {
        // The gateway's clock is the system's (Gateway.Builder sets no other outside its package): so is the store's.
        RedisStore store = replicas.replica("prod", dev.warden.gateway.config.Redis.WhenDown.OPEN,
                java.time.Clock.systemUTC());
        Upstream upstream = Upstream.builder("db", () -> {
            InMemoryTransport.Pair pair = InMemoryTransport.pair();
            server.connect(pair.right());
            return pair.left();
        }).limits(limits).reconnect(ReconnectPolicy.none()).build();
        Gateway gateway = Gateway.builder().upstream(upstream).incidents(IncidentSink.all())
                .shared(store.rates(), store.breakers()).build();
        open.add(gateway);
        McpClient client = McpClient.builder("model", "1").connect(() -> {
            InMemoryTransport.Pair pair = InMemoryTransport.pair();
            gateway.connect(pair.right());
            return pair.left();
        });
        open.add(client);
        return client;
    }

    private static JsonNode error(ToolCallResult result) {
        assertThat(result.isError()).as(result.text()).isTrue();
        return Json.mapper().readTree(result.text()).get("error");
    }

    @Test
    void aToolPausedByOneReplicaIsPausedOnTheOther() throws Exception {
        McpClient a = replica(Limits.ofDefaults().withBreaker(EAGER));
        McpClient b = replica(Limits.ofDefaults().withBreaker(EAGER));
        JsonNode paused = null;
        for (int i = 0; i < 10 && paused == null; i++) {
            JsonNode e = error(a.callTool("broken", Json.object()));
            if (e.get("message").asString().contains("paused")) {
                paused = e;
            }
        }
        assertThat(paused).as("A's breaker for the tool opened").isNotNull();
        int reached = brokenCalls.get();
        Replicas.await(() -> error(b.callTool("broken", Json.object())).get("message").asString()
                .contains("seen by another replica"), Duration.ofSeconds(10), "B pauses the tool A paused");
        JsonNode onB = error(b.callTool("broken", Json.object()));
        assertThat(onB.get("code").asString()).isEqualTo("UPSTREAM_ERROR");
        assertThat(onB.get("message").asString()).startsWith("The tool broken is paused until ")
                .contains("it failed 2 of its last 2 calls");
        assertThat(onB.get("retryAfterMs").asLong()).isPositive();
        assertThat(b.callTool("ok", Json.object()).text()).as("the server's other tools work on B").isEqualTo("fine");
        assertThat(replicas.redis.command("PTTL", "warden:prod:breaker:db/broken")).satisfies(ttl ->
                assertThat(Long.parseLong(ttl)).isPositive().isLessThanOrEqualTo(Duration.ofHours(1).toMillis()));
        // At most the calls B made before the opening arrived reached the server; none after.
        int afterArrival = brokenCalls.get();
        error(b.callTool("broken", Json.object()));
        assertThat(brokenCalls.get()).isEqualTo(afterArrival).isGreaterThanOrEqualTo(reached);
    }

    @Test
    void aPerToolRateIsCountedForBothReplicasTogether() {
        Limits threeAMinute = Limits.ofDefaults().withPerTool(java.util.Optional.of(Limits.Rate.parse("3/m")));
        McpClient a = replica(threeAMinute);
        McpClient b = replica(threeAMinute);
        int admitted = 0;
        for (int i = 0; i < 10; i++) {
            ToolCallResult r = (i % 2 == 0 ? a : b).callTool("ok", Json.object());
            if (!r.isError()) {
                admitted++;
            } else {
                assertThat(error(r).get("code").asString()).isEqualTo("RATE_LIMITED");
            }
        }
        // Real time here (Gateway.Builder's clock is the system's): 3 a minute refills one in 20 s, far beyond this loop.
        assertThat(admitted).isEqualTo(3);
    }
}
