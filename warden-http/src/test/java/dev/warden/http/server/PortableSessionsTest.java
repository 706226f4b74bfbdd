package dev.warden.http.server;

import static dev.warden.http.server.HttpPeer.INITIALIZED;
import static dev.warden.http.server.HttpPeer.jsonHeaders;
import static dev.warden.http.server.HttpPeer.sessionHeaders;
import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.identity.Authenticator;
import dev.warden.core.identity.Caller;
import dev.warden.core.identity.Credentials;
import dev.warden.core.identity.ProtectedResourceMetadata;
import dev.warden.core.identity.Verdict;
import dev.warden.core.incident.IncidentSink;
import dev.warden.core.json.Json;
import dev.warden.server.McpServer;
import dev.warden.server.ToolResult;
import dev.warden.server.ToolSpec;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Two servers sharing session keys stand for two replicas behind a round-robin balancer: a session
 * one opened is served by the other, which restores it from its sealed id; an id that does not
 * open there is answered exactly as an unknown one.
 */
class PortableSessionsTest {

    private static final SessionKeys KEYS = SessionKeys.parse(SessionKeys.newKeyLine("k1"));
    private static final String INIT = """
            {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25",\
            "capabilities":{"elicitation":{}},"clientInfo":{"name":"portable-client","version":"1"}}}""";
    private static final String CALL = """
            {"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"capabilities","arguments":{}}}""";

    private final TestClock clock = new TestClock();
    private final List<McpHttpServer> servers = new ArrayList<>();

    /** A replica: a server of its own, with a tool that says what the client declared to it. */
    private McpHttpServer replica(Optional<SessionKeys> keys, Optional<Authenticator> authenticator) throws Exception {
        McpServer server = McpServer.builder("replica", "1").incidents(IncidentSink.all())
                .tool(ToolSpec.builder("capabilities").handler(call -> ToolResult.text(
                        call.context().clientCapabilities().map(Json::write).orElse("none"))).build())
                .build();
        McpHttpServerBuilder b = McpHttpServer.builder().clock(clock).onSession(server::connect);
        keys.ifPresent(k -> b.portableSessions(k, Duration.ofHours(24)));
        authenticator.ifPresent(b::authenticator);
        McpHttpServer http = b.build().start();
        servers.add(http);
        return http;
    }

    private McpHttpServer replica(SessionKeys keys) throws Exception {
        return replica(Optional.of(keys), Optional.empty());
    }

    /** A replica that keeps one session at most. */
    private McpHttpServer smallReplica(SessionKeys keys) throws Exception {
        McpServer server = McpServer.builder("replica", "1").incidents(IncidentSink.all()).build();
        McpHttpServer http = McpHttpServer.builder().clock(clock).onSession(server::connect).maxSessions(1, 1)
                .portableSessions(keys, Duration.ofHours(24)).build().start();
        servers.add(http);
        return http;
    }

    @AfterEach
    void stop() {
        HttpPeer.closeAll();
        servers.forEach(McpHttpServer::close);
    }

    private static String open(McpHttpServer on, String init, Map<String, String> extra) throws Exception {
        HttpPeer peer = new HttpPeer(on.endpoint());
        Map<String, String> headers = new HashMap<>(jsonHeaders());
        headers.putAll(extra);
        HttpResponse<String> response = peer.send(peer.post(init, headers));
        assertThat(response.statusCode()).isEqualTo(200);
        String session = response.headers().firstValue("Mcp-Session-Id").orElseThrow();
        assertThat(peer.send(peer.post(INITIALIZED, with(session, extra))).statusCode()).isEqualTo(202);
        return session;
    }

    private static Map<String, String> with(String session, Map<String, String> extra) {
        Map<String, String> headers = new HashMap<>(sessionHeaders(session));
        headers.putAll(extra);
        return headers;
    }

    private static HttpResponse<String> call(McpHttpServer on, String session, int id, Map<String, String> extra)
            throws Exception {
        HttpPeer peer = new HttpPeer(on.endpoint());
        return peer.send(peer.post(CALL.formatted(id), with(session, extra)));
    }

    private static JsonNode answer(HttpResponse<String> response) {
        List<HttpPeer.Event> events = HttpPeer.events(response.body());
        return Json.mapper().readTree(events.get(events.size() - 1).data());
    }

    @Test
    void aSessionOpenedOnOneReplicaIsServedByAnother() throws Exception {
        McpHttpServer a = replica(KEYS);
        McpHttpServer b = replica(KEYS);
        String session = open(a, INIT, Map.of());

        HttpResponse<String> response = call(b, session, 2, Map.of());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(answer(response).at("/result/isError").asBoolean(false)).isFalse();
        assertThat(b.stats().sessionsRestored()).isEqualTo(1);
        assertThat(b.sessionCount()).isEqualTo(1);
    }

    @Test
    void theReplicaThatRestoresASessionKnowsWhatTheClientDeclaredAtInitialize() throws Exception {
        McpHttpServer a = replica(KEYS);
        McpHttpServer b = replica(KEYS);
        String session = open(a, INIT, Map.of());

        JsonNode declared = Json.mapper().readTree(answer(call(b, session, 2, Map.of()))
                .at("/result/content/0/text").asString());

        assertThat(declared.has("elicitation")).isTrue();
    }

    @Test
    void requestsGoingBackAndForthBetweenReplicasAreAllAnsweredAndEachReplicaRestoresOnce() throws Exception {
        McpHttpServer a = replica(KEYS);
        McpHttpServer b = replica(KEYS);
        String session = open(a, INIT, Map.of());

        for (int id = 2; id < 8; id++) {
            HttpResponse<String> response = call(id % 2 == 0 ? b : a, session, id, Map.of());
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(answer(response).get("id").asInt()).isEqualTo(id);
        }

        assertThat(a.stats().sessionsRestored()).isZero();
        assertThat(b.stats().sessionsRestored()).isEqualTo(1);
    }

    @Test
    void theOtherReplicaOpensTheSessionsGetStream() throws Exception {
        McpHttpServer a = replica(KEYS);
        McpHttpServer b = replica(KEYS);
        String session = open(a, INIT, Map.of());
        HttpPeer peer = new HttpPeer(b.endpoint());

        HttpResponse<Stream<String>> stream = peer.stream(HttpRequest.newBuilder(b.endpoint())
                .timeout(Duration.ofSeconds(20)).GET().header("Accept", "text/event-stream")
                .header("Mcp-Session-Id", session).header("MCP-Protocol-Version", "2025-11-25"));

        assertThat(stream.statusCode()).isEqualTo(200);
        stream.body().close();
    }

    @Test
    void aStreamOfOneReplicaCannotBeResumedOnAnother() throws Exception {
        McpHttpServer a = replica(KEYS);
        McpHttpServer b = replica(KEYS);
        String session = open(a, INIT, Map.of());
        String eventId = HttpPeer.events(call(a, session, 2, Map.of()).body()).get(0).id().orElseThrow();
        HttpPeer peer = new HttpPeer(b.endpoint());

        HttpResponse<String> resumed = peer.send(HttpRequest.newBuilder(b.endpoint()).timeout(Duration.ofSeconds(20))
                .GET().header("Accept", "text/event-stream").header("Mcp-Session-Id", session)
                .header("MCP-Protocol-Version", "2025-11-25").header("Last-Event-ID", eventId));

        assertThat(resumed.statusCode()).isEqualTo(400); // the events are on the first replica only (the design's next step)
    }

    @Test
    void anAlteredIdIsAnsweredOnTheOtherReplicaExactlyAsAnUnknownOne() throws Exception {
        McpHttpServer a = replica(KEYS);
        McpHttpServer b = replica(KEYS);
        String session = open(a, INIT, Map.of());
        int at = session.length() - 5;
        String altered = session.substring(0, at) + (session.charAt(at) == 'A' ? 'B' : 'A') + session.substring(at + 1);

        HttpResponse<String> forged = call(b, altered, 2, Map.of());
        HttpResponse<String> unknown = call(b, "ws1.k1.nothing-sealed-here", 2, Map.of());

        assertThat(forged.statusCode()).isEqualTo(404);
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(Json.mapper().readTree(forged.body()).at("/error/message").asString())
                .isEqualTo(Json.mapper().readTree(unknown.body()).at("/error/message").asString())
                .startsWith("Not found: the session does not exist");
        assertThat(b.stats().sessionsRestored()).isZero();
    }

    @Test
    void anIdSealedWithAnotherDeploymentsKeyIsNotFound() throws Exception {
        McpHttpServer a = replica(SessionKeys.parse(SessionKeys.newKeyLine("k1")));
        McpHttpServer b = replica(KEYS);
        String session = open(a, INIT, Map.of());

        assertThat(call(b, session, 2, Map.of()).statusCode()).isEqualTo(404);
    }

    @Test
    void anIdOlderThanTheMaximumAgeIsNotFoundOnAnotherReplica() throws Exception {
        McpHttpServer a = replica(KEYS);
        McpHttpServer b = replica(KEYS);
        String session = open(a, INIT, Map.of());

        clock.advance(Duration.ofHours(24).plusSeconds(1));

        assertThat(call(b, session, 2, Map.of()).statusCode()).isEqualTo(404);
    }

    @Test
    void anotherPrincipalPresentingTheIdIsToldItDoesNotExistAndItsOwnerIsServed() throws Exception {
        McpHttpServer a = replica(Optional.of(KEYS), Optional.of(new Tokens()));
        McpHttpServer b = replica(Optional.of(KEYS), Optional.of(new Tokens()));
        String session = open(a, INIT, Map.of("Authorization", "Bearer alice"));

        assertThat(call(b, session, 2, Map.of("Authorization", "Bearer bob")).statusCode()).isEqualTo(404);
        assertThat(call(b, session, 3, Map.of("Authorization", "Bearer alice")).statusCode()).isEqualTo(200);
    }

    @Test
    void withoutPortableSessionsIdsArePlainAndAnotherServerAnswersNotFoundAsBefore() throws Exception {
        McpHttpServer a = replica(Optional.empty(), Optional.empty());
        McpHttpServer b = replica(Optional.empty(), Optional.empty());
        String session = open(a, INIT, Map.of());

        assertThat(session).doesNotStartWith("ws1.").hasSize(32);
        assertThat(call(b, session, 2, Map.of()).statusCode()).isEqualTo(404);
        assertThat(call(a, session, 3, Map.of()).statusCode()).isEqualTo(200);
    }

    @Test
    void anInitializeTooLargeToSealGetsAPlainIdServedByItsOwnReplicaOnly() throws Exception {
        McpHttpServer a = replica(KEYS);
        McpHttpServer b = replica(KEYS);
        String large = INIT.replace("\"elicitation\":{}", "\"experimental\":{\"x\":\"" + "y".repeat(4000) + "\"}");

        String session = open(a, large, Map.of());

        assertThat(session).doesNotStartWith("ws1.");
        assertThat(a.stats().sessionsNotPortable()).isEqualTo(1);
        assertThat(call(a, session, 2, Map.of()).statusCode()).isEqualTo(200);
        assertThat(call(b, session, 3, Map.of()).statusCode()).isEqualTo(404);
    }

    @Test
    void aSessionDeletedOnAReplicaIsNotRestoredThereAgain() throws Exception {
        McpHttpServer a = replica(KEYS);
        String session = open(a, INIT, Map.of());
        HttpPeer peer = new HttpPeer(a.endpoint());
        HttpRequest.Builder delete = HttpRequest.newBuilder(a.endpoint()).timeout(Duration.ofSeconds(20))
                .DELETE().header("Mcp-Session-Id", session).header("MCP-Protocol-Version", "2025-11-25");

        assertThat(peer.send(delete).statusCode()).isEqualTo(200);

        assertThat(call(a, session, 2, Map.of()).statusCode()).isEqualTo(404);
        assertThat(a.stats().sessionsRestored()).isZero();
    }

    @Test
    void requestsRestoringOneSessionAtOnceConnectItOnce() throws Exception {
        McpHttpServer a = replica(KEYS);
        McpHttpServer b = replica(KEYS);
        String session = open(a, INIT, Map.of());
        List<Thread> threads = new ArrayList<>();
        List<Integer> statuses = java.util.Collections.synchronizedList(new ArrayList<>());
        for (int i = 0; i < 8; i++) {
            int id = 10 + i;
            threads.add(Thread.ofVirtual().start(() -> {
                try {
                    statuses.add(call(b, session, id, Map.of()).statusCode());
                } catch (Exception e) {
                    statuses.add(-1);
                }
            }));
        }
        for (Thread t : threads) {
            t.join(Duration.ofSeconds(30));
        }

        assertThat(statuses).hasSize(8).containsOnly(200);
        assertThat(b.stats().sessionsRestored()).isEqualTo(1);
        assertThat(b.sessionCount()).isEqualTo(1);
    }

    @Test
    void aReplicaWithNoRoomAnswersTheRestoringRequestAsARefusedInitialize() throws Exception {
        McpHttpServer a = replica(KEYS);
        McpHttpServer b = smallReplica(KEYS);
        String busy = open(b, INIT, Map.of());
        HttpPeer peer = new HttpPeer(b.endpoint());
        HttpResponse<Stream<String>> held = peer.stream(HttpRequest.newBuilder(b.endpoint())
                .timeout(Duration.ofSeconds(20)).GET().header("Accept", "text/event-stream")
                .header("Mcp-Session-Id", busy).header("MCP-Protocol-Version", "2025-11-25"));
        assertThat(held.statusCode()).isEqualTo(200); // an open GET stream: the session is not idle
        String session = open(a, INIT, Map.of());

        HttpResponse<String> refused = call(b, session, 2, Map.of());

        assertThat(refused.statusCode()).isEqualTo(503);
        assertThat(refused.headers().firstValue("Retry-After")).contains("60");
        held.body().close();
    }

    /** Tokens by value: alice and bob; anything else invalid. */
    private static final class Tokens implements Authenticator {
        @Override
        public Verdict authenticate(Credentials credentials, URI resource) {
            return switch (credentials.authorization().orElse("")) {
                case "Bearer alice" -> admitted("alice");
                case "Bearer bob" -> admitted("bob");
                default -> new Verdict.Refused(Verdict.Refusal.INVALID_TOKEN, Set.of(), "unknown token");
            };
        }

        private static Verdict admitted(String subject) {
            return new Verdict.Admitted(new Caller(subject, Optional.of("app"), "https://as.example", Set.of(),
                    Map.of(), Caller.Kind.JWT, Optional.empty()));
        }

        @Override
        public ProtectedResourceMetadata metadata(URI resource) {
            return new ProtectedResourceMetadata(resource, List.of(URI.create("https://as.example")), List.of());
        }

        @Override
        public Set<String> requiredScopes() {
            return Set.of();
        }

        @Override
        public Set<String> scopesForTool(String tool) {
            return Set.of();
        }
    }
}
