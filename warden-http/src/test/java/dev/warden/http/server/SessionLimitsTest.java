package dev.warden.http.server;

import static dev.warden.http.server.HttpPeer.INIT;
import static dev.warden.http.server.HttpPeer.jsonHeaders;
import static dev.warden.http.server.HttpPeer.sessionHeaders;
import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.incident.IncidentSink;
import dev.warden.core.json.Json;
import dev.warden.server.McpServer;
import dev.warden.server.ToolResult;
import dev.warden.server.ToolSpec;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Sessions are bounded: in number, in total and per address, and in time once idle. */
class SessionLimitsTest {

    private static final String PING = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}";

    private final TestClock clock = new TestClock();
    private final CountDownLatch entered = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);
    private McpHttpServer http;
    private HttpPeer peer;

    private void start(java.util.function.UnaryOperator<McpHttpServerBuilder> limits) throws Exception {
        McpServer server = McpServer.builder("limits", "1").incidents(IncidentSink.all())
                .tool(ToolSpec.builder("held").handler(call -> {
                    entered.countDown();
                    release.await();
                    return ToolResult.text("released");
                }).build())
                .build();
        http = limits.apply(McpHttpServer.builder().clock(clock).onSession(server::connect)).build().start();
        peer = new HttpPeer(http.endpoint());
    }

    @AfterEach
    void stop() {
        release.countDown();
        HttpPeer.closeAll();
        http.close();
    }

    @Test
    void atTheCapTheSessionIdleForLongestMakesRoomAndItsIdAnswers404() throws Exception {
        start(b -> b.maxSessions(2, 2));
        String oldest = peer.initialize();
        clock.advance(Duration.ofSeconds(1));
        String newer = peer.initialize();
        clock.advance(Duration.ofSeconds(1));

        String third = peer.initialize();

        assertThat(status(oldest)).isEqualTo(404);
        assertThat(status(newer)).isEqualTo(200);
        assertThat(status(third)).isEqualTo(200);
        assertThat(http.sessionCount()).isEqualTo(2);
        assertThat(http.stats().sessionsEvicted()).isEqualTo(1);
    }

    @Test
    void theSessionLastActiveLongestAgoMakesRoomNotTheFirstOpened() throws Exception {
        start(b -> b.maxSessions(2, 2));
        String first = peer.initialize();
        clock.advance(Duration.ofSeconds(1));
        String second = peer.initialize();
        clock.advance(Duration.ofSeconds(1));
        assertThat(status(first)).isEqualTo(200); // active again, after the second
        clock.advance(Duration.ofSeconds(1));

        peer.initialize();

        assertThat(status(second)).isEqualTo(404);
        assertThat(status(first)).isEqualTo(200);
    }

    @Test
    void aSessionWithACallInFlightIsPassedOverForTheNextIdleOne() throws Exception {
        start(b -> b.maxSessions(2, 2));
        String busy = peer.initialize();
        CompletableFuture<HttpResponse<String>> call = heldCall(busy);
        assertThat(entered.await(15, TimeUnit.SECONDS)).isTrue();
        clock.advance(Duration.ofSeconds(1));
        String idle = peer.initialize(); // active after the busy one was
        clock.advance(Duration.ofSeconds(1));

        peer.initialize();

        assertThat(status(idle)).isEqualTo(404);
        release.countDown();
        assertThat(call.get(15, TimeUnit.SECONDS).body()).contains("released");
        assertThat(status(busy)).isEqualTo(200);
    }

    @Test
    void theCapPerAddressEvictsAmongThatAddressesSessions() throws Exception {
        start(b -> b.maxSessions(100, 1));
        String first = peer.initialize();
        String second = peer.initialize();

        assertThat(status(first)).isEqualTo(404);
        assertThat(status(second)).isEqualTo(200);
    }

    @Test
    void whenNoSessionIsIdleAnInitializeAtTheCapIsRefusedWith503AndARef() throws Exception {
        start(b -> b.maxSessions(1, 1));
        String busy = peer.initialize();
        CompletableFuture<HttpResponse<String>> call = heldCall(busy);
        assertThat(entered.await(15, TimeUnit.SECONDS)).isTrue();

        HttpResponse<String> refused = peer.send(peer.post(INIT, jsonHeaders()));

        assertThat(refused.statusCode()).isEqualTo(503);
        assertThat(refused.headers().firstValue("Mcp-Session-Id")).isEmpty();
        assertThat(refused.headers().firstValue("Retry-After")).contains("60");
        // The request was valid: the code of a server that cannot take it now, as when it drains.
        assertThat(Json.mapper().readTree(refused.body()).at("/error/code").asInt()).isEqualTo(-32603);
        assertThat(Json.mapper().readTree(refused.body()).at("/error/data/code").asString()).isEqualTo("RATE_LIMITED");
        assertThat(Json.mapper().readTree(refused.body()).at("/error/data/ref").asString()).isNotEmpty();
        release.countDown();
        assertThat(call.get(15, TimeUnit.SECONDS).body()).contains("released");
    }

    @Test
    void aSessionIdlePastTheTimeoutIsClosedAndItsIdAnswers404() throws Exception {
        start(b -> b.sessionIdleTimeout(Duration.ofMinutes(10)));
        String session = peer.initialize();
        clock.advance(Duration.ofMinutes(9));
        assertThat(status(session)).isEqualTo(200); // a request: active again

        clock.advance(Duration.ofMinutes(10).plusSeconds(1));

        assertThat(http.sessionCount()).isZero();
        assertThat(status(session)).isEqualTo(404);
        assertThat(http.stats().sessionsExpired()).isEqualTo(1);
    }

    @Test
    void aSessionWaitingOnItsGetStreamIsNotIdle() throws Exception {
        start(b -> b.sessionIdleTimeout(Duration.ofMinutes(10)));
        String session = peer.initialize();
        HttpResponse<Stream<String>> get = peer.stream(HttpRequest.newBuilder(peer.endpoint()).GET()
                .header("Accept", "text/event-stream").header("Mcp-Session-Id", session)
                .header("MCP-Protocol-Version", "2025-11-25"));
        HttpPeer.events(get.body().iterator(), 1); // the priming event: the stream is open

        clock.advance(Duration.ofHours(1));

        assertThat(http.sessionCount()).isEqualTo(1);
        get.body().close();
    }

    @Test
    void requestsInFlightPerSessionAreBounded() throws Exception {
        start(b -> b.maxPendingRequests(1));
        String session = peer.initialize();
        heldCall(session);
        assertThat(entered.await(15, TimeUnit.SECONDS)).isTrue();

        HttpResponse<String> refused = peer.send(peer.post(PING, sessionHeaders(session)));

        assertThat(refused.statusCode()).isEqualTo(429);
        assertThat(Json.mapper().readTree(refused.body()).at("/error/code").asInt()).isEqualTo(-32600);
        assertThat(Json.mapper().readTree(refused.body()).at("/error/data/code").asString()).isEqualTo("RATE_LIMITED");
    }

    /** A call to the tool that holds until released, on {@code session}, answered in the background. */
    private CompletableFuture<HttpResponse<String>> heldCall(String session) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return peer.send(peer.post("""
                        {"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"held","arguments":{}}}""",
                        sessionHeaders(session)));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    /**
     * On a connection of its own: after the test clock moves past the request deadline, the server
     * closes the idle connections it kept (RequestDeadlines' sweep, every second), and a request
     * sent on one of those as it closes got no answer (under load, "header parser received no bytes").
     */
    private int status(String session) throws Exception {
        HttpPeer fresh = new HttpPeer(http.endpoint());
        return fresh.send(fresh.post(PING, sessionHeaders(session))).statusCode();
    }
}
