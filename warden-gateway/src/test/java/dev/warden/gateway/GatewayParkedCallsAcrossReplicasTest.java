package dev.warden.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.cluster.InProcessReplicas;
import dev.warden.core.identity.Caller;
import dev.warden.core.incident.IncidentSink;
import dev.warden.core.json.Json;
import dev.warden.core.transport.InMemoryTransport;
import dev.warden.core.transport.Transport;
import dev.warden.gateway.config.Upstream;
import dev.warden.server.McpServer;
import dev.warden.server.ToolResult;
import dev.warden.server.ToolSpec;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Two gateway replicas joined by a bus, in front of the same session-based upstream: a stateless
 * (2026-07-28) call parked on one, whose next round reaches the other, is answered by the one that
 * holds it (the upstream's question is open there), never run a second time; when that replica or
 * the bus is gone, the client is told to call again.
 */
class GatewayParkedCallsAcrossReplicasTest {

    private final AtomicInteger runs = new AtomicInteger();
    /** When set, the tool waits on it once its question is answered: a round still being served. */
    private volatile CountDownLatch holdAfterAnswer;
    private final CountDownLatch answered = new CountDownLatch(1);
    private final McpServer upstream = McpServer.builder("asking", "1.0.0").incidents(IncidentSink.all())
            .tool(ToolSpec.builder("ask").handler(call -> {
                runs.incrementAndGet();
                ObjectNode params = Json.object();
                params.putArray("messages").addObject().put("role", "user").putObject("content")
                        .put("type", "text").put("text", "who are you?");
                params.put("maxTokens", 5);
                String said = call.context().requestClient("sampling/createMessage", params)
                        .path("content").path("text").asString();
                CountDownLatch hold = holdAfterAnswer;
                if (hold != null) {
                    answered.countDown();
                    hold.await();
                }
                return ToolResult.text(said);
            }).build())
            .build();
    private final InProcessReplicas hub = InProcessReplicas.hub();
    private final List<Gateway> gateways = new ArrayList<>();
    /** A member of the bus that is no gateway: what it sends proves nothing. */
    private final dev.warden.core.cluster.ReplicaBus evil = hub.join("evil");

    /** The spans of every replica, in one place. */
    private final TracedGateway traced = new TracedGateway();

    private Gateway replica(String id) {
        return replica(id, dev.warden.telemetry.McpTelemetry.noop());
    }

    private Gateway replica(String id, dev.warden.telemetry.McpTelemetry telemetry) {
        Gateway.Builder builder = Gateway.builder().upstream(upstream()).incidents(IncidentSink.all())
                .telemetry(telemetry);
        if (id != null) {
            builder.replicas(hub.join(id));
        }
        Gateway gateway = builder.build();
        gateways.add(gateway);
        return gateway;
    }

    /** Reached without server/discover: a session-based upstream, so its questions park stateless calls. */
    private Upstream upstream() {
        return Upstream.builder("asking", () -> {
            InMemoryTransport.Pair pair = InMemoryTransport.pair();
            upstream.connect(pair.right());
            return new RefusingMethod(pair.left(), "server/discover", "{\"code\":-32601,\"message\":\"Method not found\"}");
        }).timeout(Duration.ofSeconds(30)).build();
    }

    @AfterEach
    void stop() {
        gateways.forEach(Gateway::close);
    }

    @Test
    void aRoundReachingAnotherReplicaIsAnsweredByTheOneHoldingTheCallAndTheToolRunsOnce() throws Exception {
        Gateway a = replica("a");
        Gateway b = replica("b");
        Optional<Caller> alice = Optional.of(AsCaller.jwt("alice"));

        JsonNode parked = request(a, alice, firstRound(1)).path("result");
        JsonNode answer = request(b, alice, nextRound(2, parked));

        assertThat(parked.path("requestState").asString()).startsWith("warden-parked.a.");
        assertThat(answer.path("id").asInt()).isEqualTo(2);
        assertThat(answer.path("result").path("content").get(0).path("text").asString()).isEqualTo("alice's model");
        assertThat(runs).as("the tool ran once, on the replica holding the call").hasValue(1);
    }

    /**
     * The round taken to the replica holding the call is a CLIENT span of the round's SERVER span
     * here, and the holder's SERVER span for it is that span's child: one trace across replicas.
     */
    @Test
    void aRoundTakenToTheReplicaHoldingTheCallStaysInOneTrace() throws Exception {
        Gateway a = replica("a", traced.telemetry);
        Gateway b = replica("b", traced.telemetry);
        Optional<Caller> alice = Optional.of(AsCaller.jwt("alice"));
        JsonNode parked = request(a, alice, firstRound(1)).path("result");
        JsonNode answer = request(b, alice, nextRound(2, parked));
        assertThat(answer.path("result").path("content").get(0).path("text").asString()).isEqualTo("alice's model");

        java.util.List<io.opentelemetry.sdk.trace.data.SpanData> hops = traced.spans().stream()
                .filter(s -> "a".equals(s.getAttributes().get(dev.warden.telemetry.McpNames.WARDEN_REPLICA))).toList();
        assertThat(hops).hasSize(1);
        io.opentelemetry.sdk.trace.data.SpanData hop = hops.get(0);
        assertThat(hop.getKind()).isEqualTo(io.opentelemetry.api.trace.SpanKind.CLIENT);
        assertThat(hop.getAttributes().get(dev.warden.telemetry.McpNames.ERROR_TYPE)).isNull();
        assertThat(traced.spans()).as("the round's SERVER span on b, the hop's parent").anySatisfy(round -> {
            assertThat(round.getKind()).isEqualTo(io.opentelemetry.api.trace.SpanKind.SERVER);
            assertThat(round.getSpanId()).isEqualTo(hop.getParentSpanId());
            assertThat(round.getTraceId()).isEqualTo(hop.getTraceId());
        });
        assertThat(traced.spans()).as("the holder's SERVER span for the round, the hop's child").anySatisfy(held -> {
            assertThat(held.getKind()).isEqualTo(io.opentelemetry.api.trace.SpanKind.SERVER);
            assertThat(held.getParentSpanId()).isEqualTo(hop.getSpanId());
            assertThat(held.getTraceId()).isEqualTo(hop.getTraceId());
            assertThat(held.getAttributes().get(dev.warden.telemetry.McpNames.JSONRPC_REQUEST_ID)).isEqualTo("2");
        });
    }

    @Test
    void anotherClientsRoundWithTheStateIsRefusedAsOnTheOwnerAndTheCallStaysForItsClient() throws Exception {
        Gateway a = replica("a");
        Gateway b = replica("b");
        JsonNode parked = request(a, Optional.of(AsCaller.jwt("alice")), firstRound(1)).path("result");

        JsonNode byBob = request(b, Optional.of(AsCaller.jwt("bob")), nextRound(2, parked));
        JsonNode byAlice = request(b, Optional.of(AsCaller.jwt("alice")), nextRound(3, parked));

        assertThat(byBob.path("id").asInt()).isEqualTo(2);
        assertThat(byBob.path("error").path("code").asInt()).isEqualTo(-32602);
        assertThat(byBob.path("error").path("message").asString()).contains("requestState is unknown");
        assertThat(byBob.path("error").path("data").path("ref").asString()).startsWith("ref_");
        assertThat(byAlice.path("result").path("content").get(0).path("text").asString()).isEqualTo("alice's model");
    }

    @Test
    void aStoppedOwnerGivesARetryableErrorWithTheRequestsIdAndNothingRunsAgain() throws Exception {
        Gateway a = replica("a");
        Gateway b = replica("b");
        JsonNode parked = request(a, Optional.empty(), firstRound(1)).path("result");
        hub.stop("a");

        JsonNode answer = request(b, Optional.empty(), nextRound(2, parked));

        assertRetryable(answer, 2);
        assertThat(runs).hasValue(1);
    }

    @Test
    void anUnreachableBusGivesTheSameRetryableErrorAndNothingRunsAgain() throws Exception {
        Gateway a = replica("a");
        Gateway b = replica("b");
        JsonNode parked = request(a, Optional.empty(), firstRound(1)).path("result");
        hub.unreachable(true);

        JsonNode answer = request(b, Optional.empty(), nextRound(2, parked));

        assertRetryable(answer, 2);
        assertThat(runs).hasValue(1);
    }

    @Test
    void aRoundReachingTheOwnerItselfIsServedThereAsInOneProcess() throws Exception {
        Gateway a = replica("a");
        replica("b");
        JsonNode parked = request(a, Optional.empty(), firstRound(1)).path("result");

        JsonNode answer = request(a, Optional.empty(), nextRound(2, parked));

        assertThat(answer.path("result").path("content").get(0).path("text").asString()).isEqualTo("alice's model");
    }

    @Test
    void aSingleProcessHandsOutRequestStatesNamingNoReplica() throws Exception {
        Gateway single = replica(null);

        JsonNode parked = request(single, Optional.empty(), firstRound(1)).path("result");

        assertThat(parked.path("requestState").asString()).matches("warden-parked\\.[A-Za-z0-9_-]{32}");
    }

    @Test
    void aForgedFreshCallOnTheRoundsTopicRunsNothingAndIsRefused() throws Exception {
        replica("a");
        replica("b");

        JsonNode answer = forged("a", "tools/call", "{\"name\":\"ask\",\"arguments\":{}," + ENVELOPE + "}");

        assertThat(answer.path("error").path("code").asInt()).isEqualTo(-32602);
        assertThat(answer.path("error").path("message").asString()).contains("requestState is unknown");
        assertThat(runs).as("nothing ran for a round of no call parked there").hasValue(0);
    }

    @Test
    void aForgedRoundWithAnUnknownStateOrAnotherReplicasIsRefusedAndThatCallStaysForItsClient() throws Exception {
        replica("a");
        Gateway b = replica("b");
        Optional<Caller> alice = Optional.of(AsCaller.jwt("alice"));
        JsonNode parkedOnB = request(b, alice, firstRound(1)).path("result");

        JsonNode unknown = forged("a", "tools/call", "{\"name\":\"ask\",\"arguments\":{},"
                + "\"requestState\":\"warden-parked.a.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\",\"inputResponses\":{}," + ENVELOPE + "}");
        JsonNode others = forged("a", "tools/call", "{\"name\":\"ask\",\"arguments\":{},\"requestState\":"
                + parkedOnB.path("requestState") + ",\"inputResponses\":{}," + ENVELOPE + "}");

        assertThat(unknown.path("error").path("code").asInt()).isEqualTo(-32602);
        assertThat(others.path("error").path("code").asInt()).isEqualTo(-32602);
        assertThat(runs).as("only the call parked on b ran, once").hasValue(1);
        assertThat(request(b, alice, nextRound(2, parkedOnB)).path("result").path("content").get(0).path("text")
                .asString()).isEqualTo("alice's model");
    }

    @Test
    void aForgedRoundOfAMethodNoCallIsParkedInIsRefusedEvenWithAHeldState() throws Exception {
        Gateway a = replica("a");
        replica("b");
        JsonNode parked = request(a, Optional.empty(), firstRound(1)).path("result");

        JsonNode answer = forged("a", "tools/list", "{\"requestState\":" + parked.path("requestState") + ","
                + ENVELOPE + "}");

        assertThat(answer.path("error").path("code").asInt()).isEqualTo(-32600);
        assertThat(answer.has("result")).isFalse();
    }

    @Test
    void aDrainOnTheOwnerWaitsForARoundItServesForAnotherReplica() throws Exception {
        Gateway a = replica("a");
        Gateway b = replica("b");
        JsonNode parked = request(a, Optional.empty(), firstRound(1)).path("result");
        CountDownLatch release = new CountDownLatch(1);
        holdAfterAnswer = release;
        CompletableFuture<JsonNode> answer = CompletableFuture.supplyAsync(() -> {
            try {
                return request(b, Optional.empty(), nextRound(2, parked));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }, VIRTUAL);
        assertThat(answered.await(30, TimeUnit.SECONDS)).as("the round reached the tool on a").isTrue();

        CompletableFuture<Boolean> drained = CompletableFuture.supplyAsync(() -> {
            try {
                return a.drain(Duration.ofMinutes(1));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }, VIRTUAL);

        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (a.lifecycle().phase() == dev.warden.gateway.health.Lifecycle.Phase.SERVING
                && System.nanoTime() < deadline) {
            java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
        }

        assertThat(a.lifecycle().inFlight()).as("the forwarded round counts on its owner").isEqualTo(1);
        assertThat(a.lifecycle().phase()).as("the drain waits for it").isEqualTo(
                dev.warden.gateway.health.Lifecycle.Phase.DRAINING);
        assertThat(drained).isNotDone();
        release.countDown();
        assertThat(drained.get(30, TimeUnit.SECONDS)).as("every call finished within the bound").isTrue();
        assertThat(answer.get(30, TimeUnit.SECONDS).path("result").path("content").get(0).path("text").asString())
                .isEqualTo("alice's model");
    }

    @Test
    void aDrainingOwnerRefusesAForwardedRoundRetryablyWithoutRunningIt() throws Exception {
        Gateway a = replica("a");
        Gateway b = replica("b");
        JsonNode parked = request(a, Optional.empty(), firstRound(1)).path("result");
        a.lifecycle().drain(Duration.ofMinutes(1));

        JsonNode answer = request(b, Optional.empty(), nextRound(2, parked));

        assertThat(answer.path("id").asInt()).isEqualTo(2);
        assertThat(answer.path("error").path("code").asInt()).isEqualTo(-32603);
        assertThat(answer.path("error").path("data").path("retryable").asBoolean()).isTrue();
        assertThat(runs).hasValue(1);
    }

    /** Each task a thread of its own: the common pool may have a single one on a small machine. */
    private static final java.util.concurrent.Executor VIRTUAL = task -> Thread.ofVirtual().start(task);

    /**
     * What replica {@code to} answers a round that no replica forwarded: a member of the bus sends
     * it itself, claiming to come from alice (whose calls the tests park).
     */
    private JsonNode forged(String to, String method, String params) throws Exception {
        String body = "{\"f\":\"x\",\"from\":\"evil\",\"request\":{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\""
                + method + "\",\"params\":" + params + "},\"caller\":{\"subject\":\"alice\",\"clientId\":\"client-alice\","
                + "\"issuer\":\"https://issuer.example\",\"scopes\":[],\"claims\":{\"groups\":[\"staff\"]},"
                + "\"kind\":\"JWT\"}}";
        String frame = dev.warden.core.cluster.ReplicaCalls.shared(evil)
                .call(to, "parked.round", body, Duration.ofSeconds(30)).get(30, TimeUnit.SECONDS);
        JsonNode answer = Json.mapper().readTree(frame);
        assertThat(answer.path("id").asInt()).isEqualTo(9);
        return answer;
    }

    private static void assertRetryable(JsonNode answer, int id) {
        assertThat(answer.path("id").asInt()).isEqualTo(id);
        JsonNode error = answer.path("error");
        assertThat(error.path("code").asInt()).isEqualTo(-32603);
        assertThat(error.path("message").asString()).isEqualTo("The replica holding this call stopped; call the tool again.");
        assertThat(error.path("data").path("code").asString()).isEqualTo("UPSTREAM_ERROR");
        assertThat(error.path("data").path("retryable").asBoolean()).isTrue();
        assertThat(error.path("data").path("ref").asString()).startsWith("ref_");
    }

    private static final String ENVELOPE = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
            + "\"io.modelcontextprotocol/clientCapabilities\":{\"sampling\":{}}}";

    private static String firstRound(int id) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"ask\","
                + "\"arguments\":{}," + ENVELOPE + "}}";
    }

    /** The next round of a parked {@code ask}: the sampling answer, under its {@code requestState}. */
    private static String nextRound(int id, JsonNode parked) {
        assertThat(parked.path("resultType").asString()).isEqualTo("input_required");
        String question = parked.path("inputRequests").propertyNames().iterator().next();
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"ask\","
                + "\"arguments\":{},\"requestState\":" + parked.path("requestState") + ",\"inputResponses\":{\""
                + question + "\":{\"role\":\"assistant\",\"content\":{\"type\":\"text\",\"text\":\"alice's model\"},"
                + "\"model\":\"m\"}}," + ENVELOPE + "}}";
    }

    /** One stateless request on a connection of its own (as each HTTP request is): its answer. */
    private static JsonNode request(Gateway gateway, Optional<Caller> caller, String frame) throws InterruptedException {
        BlockingQueue<JsonNode> received = new LinkedBlockingQueue<>();
        InMemoryTransport.Pair pair = InMemoryTransport.pair();
        gateway.connect(new AsCaller(pair.right(), "10.0.0.1", caller));
        pair.left().start(new Transport.Listener() {
            @Override
            public void onFrame(byte[] bytes) {
                received.add(Json.mapper().readTree(new String(bytes, StandardCharsets.UTF_8)));
            }

            @Override
            public void onFrameError(dev.warden.core.error.ProtocolException error) {
            }

            @Override
            public void onClose() {
            }
        });
        pair.left().send(frame);
        try {
            while (true) {
                JsonNode next = received.poll(30, TimeUnit.SECONDS);
                assertThat(next).as("an answer").isNotNull();
                if (next.has("id") && !next.has("method")) {
                    return next;
                }
            }
        } finally {
            pair.left().close();
        }
    }
}
