package dev.warden.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.client.McpClient;
import dev.warden.client.ReconnectPolicy;
import dev.warden.client.ToolCallResult;
import dev.warden.core.incident.IncidentSink;
import dev.warden.core.json.Json;
import dev.warden.core.transport.InMemoryTransport;
import dev.warden.core.transport.Transport;
import dev.warden.gateway.config.Limits;
import dev.warden.gateway.config.Upstream;
import dev.warden.server.McpServer;
import dev.warden.server.ToolResult;
import dev.warden.server.ToolSpec;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The gateway's limits, in front of a Warden server in the same JVM (in-memory transports on both
 * sides): a breaker that opens and recovers, rate limits per tool and per client as RATE_LIMITED
 * results the model can read, and a concurrency limit.
 */
class GatewayLimitsTest {

    private final AtomicInteger calls = new AtomicInteger();
    /** Released when the slow tool is running. */
    private final CountDownLatch slowEntered = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);
    private final MovableClock clock = new MovableClock();
    private final McpServer upstream = McpServer.builder("limited", "1.0.0").incidents(IncidentSink.all())
            .tool(ToolSpec.builder("ok").handler(c -> {
                calls.incrementAndGet();
                return ToolResult.text("fine");
            }).build())
            .tool(ToolSpec.builder("slow").handler(c -> {
                calls.incrementAndGet();
                slowEntered.countDown();
                release.await(30, TimeUnit.SECONDS);
                return ToolResult.text("late");
            }).build())
            .build();
    private Gateway gateway;
    private McpClient client;

    private Supplier<Transport> inProcess() {
        return () -> {
            InMemoryTransport.Pair pair = InMemoryTransport.pair();
            upstream.connect(pair.right());
            return pair.left();
        };
    }

    private void start(Limits limits, Duration timeout, Optional<Limits.Rate> perClient) {
        Upstream u = Upstream.builder("limited", inProcess()).timeout(timeout).limits(limits)
                .reconnect(ReconnectPolicy.none()).build();
        Gateway.Builder b = Gateway.builder().upstream(u).incidents(IncidentSink.all()).clock(clock);
        perClient.ifPresent(b::perClient);
        gateway = b.build();
        client = McpClient.builder("test", "1").requestTimeout(Duration.ofSeconds(30)).connect(ViaGateway.to(gateway));
    }

    @AfterEach
    void stop() {
        release.countDown();
        if (client != null) {
            client.close();
        }
        if (gateway != null) {
            gateway.close();
        }
    }

    private static JsonNode error(ToolCallResult result) {
        assertThat(result.isError()).isTrue();
        return Json.mapper().readTree(result.text()).get("error");
    }

    @Test
    void theBreakerOpensAfterFailuresAnswersWithRetryAfterAndRecovers() throws Exception {
        Limits limits = Limits.ofDefaults().withBreaker(new Limits.Breaker(50, 2, 2, Duration.ofMillis(300)));
        start(limits, Duration.ofMillis(200), Optional.empty());
        // The window counts every request to the upstream (the listing the client made first included):
        // timeouts push the failure rate to the threshold within a few calls.
        assertThat(error(client.callTool("slow", Json.object())).get("code").asString()).isEqualTo("TIMEOUT");
        JsonNode open = null;
        for (int i = 0; i < 5 && open == null; i++) {
            JsonNode e = error(client.callTool("slow", Json.object()));
            if (e.get("code").asString().equals("UPSTREAM_ERROR")) {
                open = e;
            } else {
                assertThat(e.get("code").asString()).isEqualTo("TIMEOUT");
            }
        }
        assertThat(open).as("the breaker opened").isNotNull();
        int before = calls.get();
        open = error(client.callTool("ok", Json.object()));
        assertThat(open.get("code").asString()).isEqualTo("UPSTREAM_ERROR");
        assertThat(open.get("retryAfterMs").asLong()).isBetween(1L, 300L);
        assertThat(calls.get()).as("an open breaker keeps calls from the upstream").isEqualTo(before);

        // The breaker lets a call try once its open time is over, by the gateway's clock.
        clock.advance(Duration.ofMillis(299));
        assertThat(error(client.callTool("ok", Json.object())).get("code").asString()).isEqualTo("UPSTREAM_ERROR");
        clock.advance(Duration.ofMillis(2));
        ToolCallResult recovered = client.callTool("ok", Json.object());
        assertThat(recovered.text()).isEqualTo("fine");
        assertThat(client.callTool("ok", Json.object()).text()).isEqualTo("fine");
    }

    @Test
    void aToolCalledTooOftenIsRateLimitedWithRetryAfter() {
        start(Limits.ofDefaults().withPerTool(Optional.of(new Limits.Rate(2, Duration.ofHours(1)))),
                Duration.ofSeconds(10), Optional.empty());
        assertThat(client.callTool("ok", Json.object()).text()).isEqualTo("fine");
        assertThat(client.callTool("ok", Json.object()).text()).isEqualTo("fine");
        JsonNode limited = error(client.callTool("ok", Json.object()));
        assertThat(limited.get("code").asString()).isEqualTo("RATE_LIMITED");
        assertThat(limited.get("retryable").asBoolean()).isTrue();
        assertThat(limited.get("retryAfterMs").asLong()).isPositive();
        assertThat(limited.get("ref").asString()).startsWith("ref_");
        assertThat(calls.get()).isEqualTo(2);
    }

    @Test
    void aClientCallingTooOftenIsRateLimitedAcrossTools() {
        start(Limits.ofDefaults(), Duration.ofSeconds(10), Optional.of(new Limits.Rate(2, Duration.ofHours(1))));
        client.listTools(); // a listing reaches the upstream too: it spends one
        assertThat(client.callTool("ok", Json.object()).text()).isEqualTo("fine");
        assertThat(error(client.callTool("ok", Json.object())).get("code").asString()).isEqualTo("RATE_LIMITED");
    }

    @Test
    void callsBeyondTheConcurrencyLimitAreRefusedAsBusy() throws Exception {
        start(new Limits(Limits.Breaker.ofDefaults(), 1, Duration.ZERO, Optional.empty()), Duration.ofSeconds(30),
                Optional.empty());
        var first = client.callToolAsync("slow", Json.object(), dev.warden.core.session.RequestOptions.ofToolCallDefaults()
                .withTimeout(Duration.ofSeconds(30)));
        assertThat(slowEntered.await(30, TimeUnit.SECONDS)).as("the slow call holds the one place").isTrue();
        JsonNode busy = error(client.callTool("ok", Json.object()));
        assertThat(busy.get("code").asString()).isEqualTo("RATE_LIMITED");
        release.countDown();
        assertThat(first.get(30, TimeUnit.SECONDS).text()).isEqualTo("late");
        assertThat(client.callTool("ok", Json.object()).text()).isEqualTo("fine");
    }
}
