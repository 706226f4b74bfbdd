package dev.warden.http.server;

import static dev.warden.http.server.ReplicaClient.CALL;
import static dev.warden.http.server.ReplicaClient.DEADLINE;
import static dev.warden.http.server.ReplicaClient.URI;
import static dev.warden.http.server.ReplicaClient.answerOf;
import static dev.warden.http.server.ReplicaClient.await;
import static dev.warden.http.server.ReplicaClient.awaitLevels;
import static dev.warden.http.server.ReplicaClient.delete;
import static dev.warden.http.server.ReplicaClient.open;
import static dev.warden.http.server.ReplicaClient.openGet;
import static dev.warden.http.server.ReplicaClient.post;
import static dev.warden.http.server.ReplicaClient.recordKey;
import static dev.warden.http.server.ReplicaClient.setLevel;
import static dev.warden.http.server.ReplicaClient.subscribe;
import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.cluster.InProcessReplicas;
import dev.warden.core.cluster.ReplicaBus;
import dev.warden.core.incident.IncidentSink;
import dev.warden.core.mcp.Logging;
import dev.warden.core.mcp.Resources;
import dev.warden.server.McpServer;
import dev.warden.server.ToolResult;
import dev.warden.server.ToolSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The changes a session makes (log level, subscriptions) and its end, as they cross replicas: only
 * what its copy accepted crosses, and a copy being restored misses none of them, whenever they come.
 */
class ReplicaChangesTest {

    private static final SessionKeys KEYS = SessionKeys.parse(SessionKeys.newKeyLine("k1"));
    private static final String CHANGES = "sessions.change";
    private static final String ENDS = "sessions.ended";
    private static final String TO_GET = "sessions.toget";
    private final InProcessReplicas hub = InProcessReplicas.hub(new TestClock());
    private final List<McpHttpServer> servers = new ArrayList<>();
    private final Map<McpHttpServer, McpServer> backends = new HashMap<>();

    /** A replica on the hub with a chatty tool and a resource to subscribe to. */
    private McpHttpServer replica(ReplicaBus bus) throws Exception {
        McpServer server = McpServer.builder("replica-" + bus.self(), "1").incidents(IncidentSink.all())
                .resourceSubscriptions(true)
                .resource(new Resources.Resource(URI, "watched", Optional.empty(), Optional.empty(), Optional.empty(),
                        OptionalLong.empty()), (u, vars) -> List.of())
                .tool(ToolSpec.builder("log").handler(call -> {
                    call.context().log(Logging.Level.INFO, "info");
                    call.context().log(Logging.Level.ERROR, "error");
                    return ToolResult.text("logged");
                }).build())
                .build();
        McpHttpServer http = McpHttpServer.builder().onSession(server::connect)
                .portableSessions(KEYS, Duration.ofHours(24)).replicas(bus).build().start();
        servers.add(http);
        backends.put(http, server);
        return http;
    }

    @AfterEach
    void stop() {
        HttpPeer.closeAll();
        servers.forEach(McpHttpServer::close);
    }

    @Test
    void aSubscriptionTheCopyRefusesIsNeitherRecordedNorToldToTheOthers() throws Exception {
        McpHttpServer a = replica(hub.join("a"));
        replica(hub.join("b"));
        String session = open(a);
        ReplicaBus store = hub.join("reader");

        JsonNode refused = answerOf(post(a, session, """
                {"jsonrpc":"2.0","id":2,"method":"resources/subscribe","params":{"uri":5}}"""));
        assertThat(answerOf(post(a, session, setLevel(3, "error"))).has("result")).isTrue();

        assertThat(refused.has("error")).isTrue();
        await("the level is recorded", () -> store.read(recordKey(session)).orElseThrow().containsKey("level"));
        assertThat(store.read(recordKey(session)).orElseThrow()).containsOnlyKeys("level");
    }

    @Test
    void aChangeMadeElsewhereWhileAReplicaRestoresTheSessionReachesItsCopy() throws Exception {
        McpHttpServer a = replica(hub.join("a"));
        WatchedBus bBus = new WatchedBus(hub.join("b"));
        McpHttpServer b = replica(bBus);
        String session = open(a);
        bBus.afterNextRead(() -> { // b has read the record, and restores its copy from what it read
            assertThat(answerOf(post(a, session, setLevel(2, "error"))).has("result")).isTrue();
            await("b has heard of the change", () -> bBus.handled(CHANGES) == 1);
        });

        awaitLevels(b, session, 3, List.of("error"));
    }

    @Test
    void aChangeMadeElsewhereAfterARestoringReplicaReadTheRecordIsNotUndoneByItsReplay() throws Exception {
        McpHttpServer a = replica(hub.join("a"));
        WatchedBus bBus = new WatchedBus(hub.join("b"));
        McpHttpServer b = replica(bBus);
        String session = open(a);
        ReplicaBus store = hub.join("reader");
        assertThat(answerOf(post(a, session, setLevel(2, "error"))).has("result")).isTrue();
        await("the level is recorded", () -> store.read(recordKey(session)).orElseThrow().containsKey("level"));
        bBus.afterRead(2, () -> { // b's second read, after its copy is initialized: its record says error
            assertThat(answerOf(post(a, session, setLevel(3, "critical"))).has("result")).isTrue();
            await("b has heard of the change", () -> bBus.handled(CHANGES) == 2);
        });

        awaitLevels(b, session, 4, List.of()); // critical: neither the info nor the error log passes
    }

    @Test
    void whileAReplicaTellsTheOthersItHoldsTheGetStreamWhatTheySendThereGetsThrough() throws Exception {
        McpHttpServer a = replica(hub.join("a"));
        WatchedBus bBus = new WatchedBus(hub.join("b"));
        McpHttpServer b = replica(bBus);
        McpHttpServer c = replica(hub.join("c"));
        String session = open(a);
        bBus.afterNextPut("get", () -> { // b recorded that it holds the GET stream, and has not said so yet
            assertThat(answerOf(post(c, session, subscribe(2, "resources/subscribe"))).has("result")).isTrue();
            await("c's update reaches b's inbox", () -> { // c restored the copy: its record says b
                backends.get(c).resourceUpdated(URI);
                return bBus.handled(TO_GET) > 0;
            });
        });

        LinkedBlockingQueue<JsonNode> getStream = openGet(b, session);

        JsonNode update = getStream.poll(DEADLINE.toSeconds(), TimeUnit.SECONDS);
        assertThat(update).isNotNull();
        assertThat(update.path("method").asString()).isEqualTo("notifications/resources/updated");
    }

    @Test
    void aSessionDeletedElsewhereWhileAReplicaRestoresItIsNotFoundThere() throws Exception {
        McpHttpServer a = replica(hub.join("a"));
        WatchedBus bBus = new WatchedBus(hub.join("b"));
        McpHttpServer b = replica(bBus);
        String session = open(a);
        bBus.afterNextRead(() -> {
            assertThat(delete(a, session).statusCode()).isEqualTo(200);
            await("b has heard of the end", () -> bBus.handled(ENDS) == 1);
        });

        assertThat(post(b, session, CALL.formatted(2, "log")).statusCode()).isEqualTo(404);
        assertThat(b.sessionCount()).isZero();
    }
}
