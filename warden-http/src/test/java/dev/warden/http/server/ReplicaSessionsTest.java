package dev.warden.http.server;

import static dev.warden.http.server.ReplicaClient.CALL;
import static dev.warden.http.server.ReplicaClient.DEADLINE;
import static dev.warden.http.server.ReplicaClient.URI;
import static dev.warden.http.server.ReplicaClient.answer;
import static dev.warden.http.server.ReplicaClient.answerOf;
import static dev.warden.http.server.ReplicaClient.await;
import static dev.warden.http.server.ReplicaClient.awaitLevels;
import static dev.warden.http.server.ReplicaClient.delete;
import static dev.warden.http.server.ReplicaClient.getLines;
import static dev.warden.http.server.ReplicaClient.levels;
import static dev.warden.http.server.ReplicaClient.nextMessage;
import static dev.warden.http.server.ReplicaClient.open;
import static dev.warden.http.server.ReplicaClient.openGet;
import static dev.warden.http.server.ReplicaClient.post;
import static dev.warden.http.server.ReplicaClient.recordKey;
import static dev.warden.http.server.ReplicaClient.setLevel;
import static dev.warden.http.server.ReplicaClient.stream;
import static dev.warden.http.server.ReplicaClient.subscribe;
import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.cluster.InProcessReplicas;
import dev.warden.core.cluster.ReplicaBus;
import dev.warden.core.incident.IncidentSink;
import dev.warden.core.json.Json;
import dev.warden.core.mcp.Logging;
import dev.warden.core.mcp.Resources;
import dev.warden.server.McpServer;
import dev.warden.server.ToolResult;
import dev.warden.server.ToolSpec;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Two or three servers sharing session keys and one bus stand for replicas behind a round-robin
 * balancer: what a session changes or sends across requests after its initialize reaches the
 * replica that needs it, wherever each request lands.
 */
class ReplicaSessionsTest {

    private static final SessionKeys KEYS = SessionKeys.parse(SessionKeys.newKeyLine("k1"));
    private final TestClock clock = new TestClock();
    private final InProcessReplicas hub = InProcessReplicas.hub(clock);
    private final Map<McpHttpServer, McpServer> backends = new HashMap<>();
    private final List<McpHttpServer> servers = new ArrayList<>();
    private final Set<String> cancelledOn = ConcurrentHashMap.newKeySet();
    private final CountDownLatch slowStarted = new CountDownLatch(1);
    private final CountDownLatch heldStarted = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);

    /** A replica on the hub: a tool that asks the client, a slow one, a chatty one, and a resource to watch. */
    private McpHttpServer replica(String id) throws Exception {
        return replica(id, hub.join(id));
    }

    private McpHttpServer replica(String id, ReplicaBus bus) throws Exception {
        McpServer server = McpServer.builder("replica-" + id, "1").incidents(IncidentSink.all())
                .resourceSubscriptions(true)
                .resource(new Resources.Resource(URI, "watched", Optional.empty(), Optional.empty(), Optional.empty(),
                        OptionalLong.empty()), (u, vars) -> List.of())
                .tool(ToolSpec.builder("ask").handler(call -> {
                    ObjectNode ask = Json.object();
                    ask.put("message", "Your name?");
                    ObjectNode answer = call.context().requestClient("elicitation/create", ask);
                    return ToolResult.text("hello " + answer.at("/content/name").asString());
                }).build())
                .tool(ToolSpec.builder("slow").handler(call -> {
                    slowStarted.countDown();
                    try {
                        new CountDownLatch(1).await(30, TimeUnit.SECONDS); // in flight until cancelled
                    } catch (InterruptedException e) {
                        cancelledOn.add(id);
                    }
                    return ToolResult.text("done");
                }).build())
                .tool(ToolSpec.builder("held").handler(call -> {
                    heldStarted.countDown();
                    try {
                        release.await(30, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return ToolResult.text("released");
                }).build())
                .tool(ToolSpec.builder("log").handler(call -> {
                    call.context().log(Logging.Level.INFO, "info from " + id);
                    call.context().log(Logging.Level.ERROR, "error from " + id);
                    return ToolResult.text("logged");
                }).build())
                .build();
        McpHttpServer http = McpHttpServer.builder().clock(clock).onSession(server::connect)
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

    // --- answers to the server's questions

    @Test
    void aQuestionAskedOnOneReplicaIsAnsweredThroughAnotherAndTheCallCompletes() throws Exception {
        McpHttpServer a = replica("a");
        McpHttpServer b = replica("b");
        String session = open(a);
        Iterator<String> call = stream(a, session, CALL.formatted(2, "ask"));
        JsonNode question = nextMessage(call);

        HttpResponse<String> answered = post(b, session, answer(question.get("id"), "Ada"));

        assertThat(answered.statusCode()).isEqualTo(202);
        assertThat(nextMessage(call).at("/result/content/0/text").asString()).isEqualTo("hello Ada");
    }

    @Test
    void theQuestionsIdNamesTheReplicaThatAskedAndKeepsTheOriginalIdsType() throws Exception {
        McpHttpServer a = replica("a");
        replica("b");
        String session = open(a);

        JsonNode question = nextMessage(stream(a, session, CALL.formatted(2, "ask")));

        assertThat(question.get("method").asString()).isEqualTo("elicitation/create");
        assertThat(question.get("id").asString()).matches("w:a:n\\d+");
    }

    @Test
    void anAnswerReachingTheReplicaThatAskedIsDeliveredThere() throws Exception {
        McpHttpServer a = replica("a");
        replica("b");
        String session = open(a);
        Iterator<String> call = stream(a, session, CALL.formatted(2, "ask"));
        JsonNode question = nextMessage(call);

        assertThat(post(a, session, answer(question.get("id"), "Grace")).statusCode()).isEqualTo(202);

        assertThat(nextMessage(call).at("/result/content/0/text").asString()).isEqualTo("hello Grace");
    }

    @Test
    void anAnswerForAReplicaThatIsDownIsAcceptedAndDropped() throws Exception {
        McpHttpServer a = replica("a");
        McpHttpServer b = replica("b");
        String session = open(a);
        JsonNode question = nextMessage(stream(a, session, CALL.formatted(2, "ask")));
        hub.stop("a");

        assertThat(post(b, session, answer(question.get("id"), "Ada")).statusCode()).isEqualTo(202);
        assertThat(answerOf(post(b, session, CALL.formatted(3, "log"))).at("/result/isError").asBoolean(true))
                .isFalse();
    }

    @Test
    void withOneProcessTheQuestionsIdIsTheSessionsOwn() throws Exception {
        McpHttpServer single = replica("single", ReplicaBus.none());
        String session = open(single);

        JsonNode question = nextMessage(stream(single, session, CALL.formatted(2, "ask")));

        assertThat(question.get("id").isIntegralNumber()).isTrue();
    }

    // --- cancellation

    @Test
    void aCancellationReachingAnotherReplicaCancelsTheCallWhereItRuns() throws Exception {
        McpHttpServer a = replica("a");
        McpHttpServer b = replica("b");
        McpHttpServer c = replica("c");
        String session = open(a);
        assertThat(post(c, session, CALL.formatted(2, "log")).statusCode()).isEqualTo(200); // c holds a copy too
        stream(a, session, CALL.formatted(3, "slow"));
        assertThat(slowStarted.await(20, TimeUnit.SECONDS)).isTrue();

        HttpResponse<String> cancel = post(b, session, """
                {"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3,"reason":"user"}}""");

        assertThat(cancel.statusCode()).isEqualTo(202);
        await("the slow call on a is cancelled", () -> cancelledOn.contains("a"));
        assertThat(cancelledOn).containsExactly("a");
    }

    // --- DELETE

    @Test
    void aSessionDeletedOnOneReplicaIsNotFoundOnAnotherThatNeverHeldIt() throws Exception {
        McpHttpServer a = replica("a");
        McpHttpServer b = replica("b");
        String session = open(a);

        assertThat(delete(a, session).statusCode()).isEqualTo(200);

        assertThat(post(b, session, CALL.formatted(2, "log")).statusCode()).isEqualTo(404);
        assertThat(b.stats().sessionsRestored()).isZero();
    }

    @Test
    void aSessionDeletedOnOneReplicaIsClosedOnTheReplicasHoldingACopy() throws Exception {
        McpHttpServer a = replica("a");
        McpHttpServer b = replica("b");
        String session = open(a);
        assertThat(post(b, session, CALL.formatted(2, "log")).statusCode()).isEqualTo(200);

        assertThat(delete(a, session).statusCode()).isEqualTo(200);

        await("b closes its copy", () -> b.sessionCount() == 0);
        assertThat(post(b, session, CALL.formatted(3, "log")).statusCode()).isEqualTo(404);
    }

    @Test
    void theSharedRecordOfADeletedSessionGoesAfterTheSealsMaximumAge() throws Exception {
        McpHttpServer a = replica("a");
        replica("b");
        String session = open(a);
        delete(a, session);
        ReplicaBus store = hub.join("reader");
        assertThat(store.read(recordKey(session)).orElseThrow()).containsKey("ended");

        clock.advance(Duration.ofHours(24).plusSeconds(1)); // the id no longer opens: the record goes with it

        assertThat(store.read(recordKey(session)).orElseThrow()).isEmpty();
    }

    // --- log level and subscriptions

    @Test
    void theLogLevelSetOnOneReplicaFiltersTheLogsOfACopyRestoredLater() throws Exception {
        McpHttpServer a = replica("a");
        McpHttpServer b = replica("b");
        String session = open(a);

        assertThat(answerOf(post(a, session, setLevel(2, "error"))).has("result")).isTrue();

        awaitLevels(b, session, 3, List.of("error"));
    }

    @Test
    void theLogLevelSetOnOneReplicaReachesACopyAnotherAlreadyHolds() throws Exception {
        McpHttpServer a = replica("a");
        McpHttpServer b = replica("b");
        String session = open(a);
        assertThat(levels(post(b, session, CALL.formatted(2, "log")))).containsExactly("info", "error");

        post(a, session, setLevel(3, "error"));

        awaitLevels(b, session, 4, List.of("error"));
    }

    @Test
    void aSubscriptionMadeOnOneReplicaIsDeliveredOnTheGetStreamOfAnotherThatRestoresLater() throws Exception {
        McpHttpServer a = replica("a");
        McpHttpServer b = replica("b");
        String session = open(a);
        assertThat(answerOf(post(a, session, subscribe(2, "resources/subscribe"))).has("result")).isTrue();

        LinkedBlockingQueue<JsonNode> getStream = openGet(b, session);

        awaitUpdate(b, getStream);
    }

    @Test
    void aSubscriptionMadeOnOneReplicaReachesACopyAnotherAlreadyHolds() throws Exception {
        McpHttpServer a = replica("a");
        McpHttpServer b = replica("b");
        String session = open(a);
        LinkedBlockingQueue<JsonNode> getStream = openGet(b, session); // b restores it before the subscription

        post(a, session, subscribe(2, "resources/subscribe"));

        awaitUpdate(b, getStream);
    }

    @Test
    void anUpdateSeenByTheServerOfAReplicaWithoutTheGetStreamReachesTheGetStreamOnAnother() throws Exception {
        McpHttpServer a = replica("a");
        McpHttpServer b = replica("b");
        String session = open(a);
        LinkedBlockingQueue<JsonNode> getStream = openGet(b, session);
        post(a, session, subscribe(2, "resources/subscribe"));

        awaitUpdate(a, getStream); // a's server sees the change; the client listens on b
    }

    @Test
    void aCopyRestoredAfterTheGetStreamOpenedSendsItsUpdatesThere() throws Exception {
        McpHttpServer a = replica("a");
        McpHttpServer b = replica("b");
        McpHttpServer c = replica("c");
        String session = open(a);
        LinkedBlockingQueue<JsonNode> getStream = openGet(b, session);
        post(c, session, subscribe(2, "resources/subscribe")); // c restores the session now: the record says b

        awaitUpdate(c, getStream);
    }

    @Test
    void afterTheGetStreamReopensOnAnotherReplicaTheFirstReplicasUpdatesFollowIt() throws Exception {
        McpHttpServer a = replica("a");
        McpHttpServer b = replica("b");
        String session = open(a);
        getLines(a, session).close(); // the client's GET connection to a breaks
        LinkedBlockingQueue<JsonNode> getStream = openGet(b, session); // and reopens on b
        assertThat(answerOf(post(a, session, subscribe(2, "resources/subscribe"))).has("result")).isTrue();

        awaitUpdate(a, getStream); // a's server sees the change: not into a's stream nobody reads
    }

    @Test
    void aReplayedChangeNeverTakesTheIdOfTheClientsOwnRequest() throws Exception {
        McpHttpServer a = replica("a");
        McpHttpServer b = replica("b");
        String session = open(a);
        assertThat(post(b, session, CALL.formatted(2, "log")).statusCode()).isEqualTo(200); // b holds a copy
        Iterator<String> call = stream(b, session, """
                {"jsonrpc":"2.0","id":"warden-replay-1","method":"tools/call","params":{"name":"held","arguments":{}}}""");
        assertThat(heldStarted.await(20, TimeUnit.SECONDS)).isTrue();

        post(a, session, setLevel(3, "error")); // replayed into b's copy while the client's request is in flight

        awaitLevels(b, session, 4, List.of("error"));
        release.countDown();
        JsonNode answer = nextMessage(call);
        assertThat(answer.get("id").asString()).isEqualTo("warden-replay-1");
        assertThat(answer.at("/result/content/0/text").asString()).isEqualTo("released");
    }

    // --- the bus unreachable

    @Test
    void withTheBusUnreachableSessionsStillRestoreAndNothingFailsTheClient() throws Exception {
        McpHttpServer a = replica("a");
        McpHttpServer b = replica("b");
        hub.unreachable(true);
        String session = open(a);

        assertThat(post(b, session, CALL.formatted(2, "log")).statusCode()).isEqualTo(200);
        assertThat(answerOf(post(a, session, setLevel(3, "error"))).has("result")).isTrue();
        assertThat(answerOf(post(a, session, subscribe(4, "resources/subscribe"))).has("result")).isTrue();
        assertThat(post(b, session, """
                {"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":99}}""").statusCode())
                .isEqualTo(202);
        assertThat(post(b, session, answer(Json.mapper().getNodeFactory().stringNode("w:a:n7"), "Ada")).statusCode())
                .isEqualTo(202);
        assertThat(delete(a, session).statusCode()).isEqualTo(200);
        assertThat(post(a, session, CALL.formatted(5, "log")).statusCode()).isEqualTo(404); // ended here, remembered
    }

    // --- helpers

    private void awaitUpdate(McpHttpServer on, LinkedBlockingQueue<JsonNode> getStream) throws Exception {
        Instant until = Instant.now().plus(DEADLINE);
        while (Instant.now().isBefore(until)) {
            backends.get(on).resourceUpdated(URI);
            JsonNode message = getStream.poll(100, TimeUnit.MILLISECONDS);
            if (message != null && "notifications/resources/updated".equals(message.path("method").asString(""))) {
                assertThat(message.at("/params/uri").asString()).isEqualTo(URI);
                return;
            }
        }
        throw new AssertionError("no resources/updated on the other replica's GET stream");
    }
}
