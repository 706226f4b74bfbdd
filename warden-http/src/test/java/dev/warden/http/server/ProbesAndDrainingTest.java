package dev.warden.http.server;

import static dev.warden.http.server.HttpPeer.jsonHeaders;
import static dev.warden.http.server.HttpPeer.sessionHeaders;
import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.incident.IncidentSink;
import dev.warden.core.json.Json;
import dev.warden.server.McpServer;
import dev.warden.server.ToolResult;
import dev.warden.server.ToolSpec;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** {@code /livez} and {@code /readyz} for load balancers, and the refusal of new requests while draining. */
class ProbesAndDrainingTest {

    /** A gateway's lifecycle in miniature: a drain flag and the requests in flight. */
    static final class TestAdmission implements Admission {
        final AtomicBoolean draining = new AtomicBoolean();
        final AtomicInteger inFlight = new AtomicInteger();

        @Override
        public boolean enter() {
            if (draining.get()) {
                return false;
            }
            inFlight.incrementAndGet();
            return true;
        }

        @Override
        public void exit() {
            inFlight.decrementAndGet();
        }

        @Override
        public List<String> unready() {
            return draining.get() ? List.of("draining") : List.of();
        }
    }

    private final CountDownLatch entered = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);
    private final TestAdmission admission = new TestAdmission();
    private McpHttpServer http;
    private HttpPeer peer;

    @BeforeEach
    void start() throws Exception {
        McpServer server = McpServer.builder("drains", "1").incidents(IncidentSink.all())
                .tool(ToolSpec.builder("held").handler(call -> {
                    entered.countDown();
                    release.await();
                    return ToolResult.text("released");
                }).build())
                .build();
        http = McpHttpServer.builder().onSession(server::connect).admission(admission).build().start();
        peer = new HttpPeer(http.endpoint());
    }

    @AfterEach
    void stop() {
        release.countDown();
        HttpPeer.closeAll();
        http.close();
    }

    private HttpResponse<String> get(String path) throws Exception {
        URI uri = http.endpoint().resolve(path);
        return peer.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).GET());
    }

    @Test
    void livenessAndReadinessAnswerWithoutCredentials() throws Exception {
        HttpResponse<String> live = get("/livez");
        HttpResponse<String> ready = get("/readyz");

        assertThat(live.statusCode()).isEqualTo(200);
        assertThat(live.body()).isEqualTo("{\"live\":true}");
        assertThat(ready.statusCode()).isEqualTo(200);
        assertThat(ready.body()).isEqualTo("{\"ready\":true,\"failing\":[]}");
    }

    @Test
    void whileDrainingReadinessIs503NamingTheCheckAndLivenessStays200() throws Exception {
        admission.draining.set(true);

        HttpResponse<String> ready = get("/readyz");
        assertThat(ready.statusCode()).isEqualTo(503);
        assertThat(ready.body()).isEqualTo("{\"ready\":false,\"failing\":[\"draining\"]}");
        assertThat(get("/livez").statusCode()).isEqualTo(200);
    }

    @Test
    void whileDrainingANewSessionIsRefusedRetryably() throws Exception {
        admission.draining.set(true);

        HttpResponse<String> refused = peer.send(peer.post(HttpPeer.INIT, jsonHeaders()));

        assertThat(refused.statusCode()).isEqualTo(503);
        assertThat(refused.headers().firstValue("Retry-After")).contains("1");
        assertThat(refused.headers().firstValue("Mcp-Session-Id")).isEmpty();
        JsonNode error = Json.mapper().readTree(refused.body());
        assertThat(error.at("/id").asInt()).isEqualTo(1);
        assertThat(error.at("/error/code").asInt()).isEqualTo(-32603);
        assertThat(error.at("/error/message").asString()).contains("shutting down").contains("retry");
        assertThat(error.at("/error/data/retryable").asBoolean()).isTrue();
        assertThat(error.at("/error/data/code").asString()).isEqualTo("RATE_LIMITED");
    }

    @Test
    void whileDrainingARequestInAnOpenSessionIsRefusedButItsNotificationsStillPass() throws Exception {
        String session = peer.initialize();
        admission.draining.set(true);

        HttpResponse<String> call = peer.send(peer.post("""
                {"jsonrpc":"2.0","id":7,"method":"tools/list"}""", sessionHeaders(session)));
        HttpResponse<String> notification = peer.send(peer.post("""
                {"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}""",
                sessionHeaders(session)));

        assertThat(call.statusCode()).isEqualTo(503);
        assertThat(Json.mapper().readTree(call.body()).at("/id").asInt()).isEqualTo(7);
        assertThat(notification.statusCode()).isEqualTo(202);
    }

    @Test
    void aCallAdmittedBeforeTheDrainIsInFlightUntilItsAnswerIsWritten() throws Exception {
        String session = peer.initialize();
        CompletableFuture<HttpResponse<String>> held = CompletableFuture.supplyAsync(() -> {
            try {
                return peer.send(peer.post("""
                        {"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"held","arguments":{}}}""",
                        sessionHeaders(session)));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
        admission.draining.set(true);
        assertThat(admission.inFlight.get()).isEqualTo(1);

        release.countDown();

        assertThat(held.get(10, TimeUnit.SECONDS).body()).contains("released");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (admission.inFlight.get() != 0 && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertThat(admission.inFlight.get()).isZero();
    }

    @Test
    void aRequestWhoseSessionCannotBeConnectedIsNotLeftInFlight() throws Exception {
        // A gateway whose connect throws: the initialize fails, and a drain must not wait for it.
        TestAdmission counted = new TestAdmission();
        try (McpHttpServer failing = McpHttpServer.builder().onSession(t -> {
            throw new IllegalStateException("cannot connect");
        }).admission(counted).build().start()) {
            HttpPeer other = new HttpPeer(failing.endpoint());
            HttpResponse<String> answer = other.send(other.post("""
                    {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18",
                     "capabilities":{},"clientInfo":{"name":"t","version":"1"}}}""", jsonHeaders()));

            assertThat(answer.statusCode()).isGreaterThanOrEqualTo(400);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (counted.inFlight.get() != 0 && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertThat(counted.inFlight.get()).isZero();
        }
    }

    @Test
    void probesNeedNoCredentialsWhereEveryOtherRequestDoes() throws Exception {
        dev.warden.core.identity.Authenticator nobody = new dev.warden.core.identity.Authenticator() {
            @Override
            public dev.warden.core.identity.Verdict authenticate(dev.warden.core.identity.Credentials credentials,
                                                                  URI resource) {
                return new dev.warden.core.identity.Verdict.Refused(
                        dev.warden.core.identity.Verdict.Refusal.MISSING, java.util.Set.of(), "no token");
            }

            @Override
            public dev.warden.core.identity.ProtectedResourceMetadata metadata(URI resource) {
                return new dev.warden.core.identity.ProtectedResourceMetadata(resource,
                        List.of(URI.create("https://as.example")), List.of());
            }
        };
        try (McpHttpServer guarded = McpHttpServer.builder().authenticator(nobody).onSession(t -> { })
                .admission(admission).build().start()) {
            HttpPeer guardedPeer = new HttpPeer(guarded.endpoint());
            assertThat(guardedPeer.send(guardedPeer.post(HttpPeer.INIT, jsonHeaders())).statusCode()).isEqualTo(401);
            HttpResponse<String> ready = guardedPeer.send(HttpRequest.newBuilder(guarded.endpoint().resolve("/readyz"))
                    .timeout(Duration.ofSeconds(10)).GET());
            assertThat(ready.statusCode()).isEqualTo(200);
            assertThat(ready.headers().firstValue("WWW-Authenticate")).isEmpty();
        }
    }
}
