package dev.warden.core.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.error.ProtocolException;
import dev.warden.core.error.Ref;
import dev.warden.core.incident.ErrorBoundary;
import dev.warden.core.incident.Incident;
import dev.warden.core.json.Json;
import dev.warden.core.jsonrpc.JsonRpcError;
import dev.warden.core.transport.InMemoryTransport;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Requests and notifications that arrive at a session, seen from the peer's side of the wire. */
class SessionIncomingTest {

    private final List<Incident> incidents = new CopyOnWriteArrayList<>();
    private final CountDownLatch release = new CountDownLatch(1);
    private final CountDownLatch slowStarted = new CountDownLatch(1);
    private final CountDownLatch slowInterrupted = new CountDownLatch(1);
    private Session session;
    private RawPeer peer;

    private void start(Session.Builder builder) {
        session = builder.boundary(ErrorBoundary.builder().incidents(incidents::add).build()).build();
        session.start();
    }

    private Session.Builder builder() {
        InMemoryTransport.Pair pair = InMemoryTransport.pair();
        peer = new RawPeer(pair.right());
        return Session.builder(pair.left())
                .onRequest("echo", ctx -> ctx.params().orElse(Json.object()))
                .onRequest("boom", ctx -> {
                    throw new IllegalStateException("jdbc:postgresql://10.0.0.5/prod password=hunter2");
                })
                .onRequest("refuse", ctx -> {
                    throw ProtocolException.invalidParams("Invalid params: x must be a string");
                })
                .onRequest("slow", ctx -> {
                    slowStarted.countDown();
                    try {
                        release.await();
                    } catch (InterruptedException e) {
                        slowInterrupted.countDown();
                        throw e;
                    }
                    return Json.object().put("slow", true);
                })
                .onRequest("progressing", ctx -> {
                    ctx.progress(1, OptionalDouble.of(3), Optional.of("one"));
                    ctx.progress(1, OptionalDouble.of(3), Optional.of("not increasing"));
                    ctx.progress(2, OptionalDouble.of(3), Optional.empty());
                    return Json.object();
                });
    }

    @AfterEach
    void close() {
        release.countDown();
        if (session != null) {
            session.close();
        }
    }

    @Test
    void aRequestIsAnsweredWithItsOwnId() throws Exception {
        start(builder());
        peer.send("{\"jsonrpc\":\"2.0\",\"id\":\"abc\",\"method\":\"echo\",\"params\":{\"v\":1}}");
        JsonNode reply = peer.next();
        assertThat(reply.get("id").stringValue()).isEqualTo("abc");
        assertThat(reply.get("result").get("v").asInt()).isEqualTo(1);
    }

    @Test
    void unknownMethodIsMethodNotFoundWithoutEchoingTheName() throws Exception {
        start(builder());
        peer.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"probe_secret_method\"}");
        String reply = peer.nextRaw();
        assertThat(Json.mapper().readTree(reply).get("error").get("code").asInt()).isEqualTo(-32601);
        assertThat(reply).doesNotContain("probe_secret_method");
    }

    @Test
    void notificationsNeverGetAResponse() throws Exception {
        start(builder());
        peer.send("{\"jsonrpc\":\"2.0\",\"method\":\"echo\",\"params\":{}}");
        peer.send("{\"jsonrpc\":\"2.0\",\"method\":\"no_such_notification\"}");
        peer.send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}");
        assertThat(peer.next().get("id").asInt()).isEqualTo(2);
        assertThat(peer.queued()).isZero();
    }

    @Test
    void malformedJsonGetsParseErrorAndTheSessionGoesOn() throws Exception {
        start(builder());
        peer.send("{not json");
        JsonNode error = peer.next();
        assertThat(error.get("error").get("code").asInt()).isEqualTo(-32700);
        assertThat(error.get("id").isNull()).isTrue();
        peer.send("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}");
        assertThat(peer.next().get("id").asInt()).isEqualTo(3);
    }

    @Test
    void aFrameErrorFromTheTransportIsAnsweredWithANullId() throws Exception {
        start(builder());
        peer.sendFrameError(dev.warden.core.error.ProtocolException.invalidRequest("Invalid request: too large"));
        JsonNode reply = peer.next();
        assertThat(reply.get("error").get("code").asInt()).isEqualTo(-32600);
        assertThat(reply.get("id").isNull()).isTrue();
    }

    @Test
    void theRefOfAProtocolErrorResolvesToAnIncidentNamingWhatWasAsked() throws Exception {
        start(builder());
        peer.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"probe_secret_method\"}");
        String ref = Json.mapper().readTree(peer.nextRaw()).at("/error/data/ref").stringValue();
        assertThat(incidents).singleElement().satisfies(incident -> {
            assertThat(incident.ref().value()).isEqualTo(ref);
            assertThat(incident.method()).isEqualTo("probe_secret_method");
            assertThat(incident.code()).isEqualTo(dev.warden.core.error.ErrorCode.NOT_FOUND);
        });
    }

    @Test
    void aThrowingHandlerGivesInternalErrorWithARefAndNoDetail() throws Exception {
        start(builder());
        peer.send("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"boom\"}");
        String raw = peer.nextRaw();
        JsonNode error = Json.mapper().readTree(raw).get("error");
        assertThat(error.get("code").asInt()).isEqualTo(-32603);
        assertThat(error.get("message").stringValue()).isEqualTo("An internal error occurred.");
        assertThat(error.get("data").get("code").stringValue()).isEqualTo("INTERNAL_ERROR");
        String ref = error.get("data").get("ref").stringValue();
        assertThat(Ref.isWellFormed(ref)).isTrue();
        assertThat(raw).doesNotContain("hunter2").doesNotContain("10.0.0.5").doesNotContain("IllegalState");
        assertThat(incidents).singleElement().satisfies(incident -> {
            assertThat(incident.ref().value()).isEqualTo(ref);
            assertThat(incident.chain().get(0).message()).contains("jdbc:postgresql://10.0.0.5/prod password=hunter2");
        });
    }

    @Test
    void aProtocolExceptionIsAnsweredWithItsCodeAndTrustedMessage() throws Exception {
        start(builder());
        peer.send("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"refuse\"}");
        JsonNode error = peer.next().get("error");
        assertThat(error.get("code").asInt()).isEqualTo(-32602);
        assertThat(error.get("message").stringValue()).isEqualTo("Invalid params: x must be a string");
        assertThat(error.get("data").get("code").stringValue()).isEqualTo("VALIDATION_ERROR");
    }

    @Test
    void aSlowHandlerDoesNotBlockOtherRequests() throws Exception {
        start(builder());
        peer.send("{\"jsonrpc\":\"2.0\",\"id\":\"slow\",\"method\":\"slow\"}");
        assertThat(slowStarted.await(20, TimeUnit.SECONDS)).isTrue();
        peer.send("{\"jsonrpc\":\"2.0\",\"id\":\"fast\",\"method\":\"echo\"}");
        assertThat(peer.next().get("id").stringValue()).isEqualTo("fast");
        release.countDown();
        assertThat(peer.next().get("id").stringValue()).isEqualTo("slow");
    }

    @Test
    void cancellationInterruptsTheHandlerAndSendsNoResponse() throws Exception {
        start(builder());
        peer.send("{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"slow\"}");
        assertThat(slowStarted.await(20, TimeUnit.SECONDS)).isTrue();
        peer.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":10,"
                + "\"reason\":\"user\"}}");
        assertThat(slowInterrupted.await(20, TimeUnit.SECONDS)).isTrue();
        awaitNoInFlight();
        peer.send("{\"jsonrpc\":\"2.0\",\"id\":11,\"method\":\"ping\"}");
        assertThat(peer.next().get("id").asInt()).isEqualTo(11);
        assertThat(peer.queued()).isZero();
        assertThat(incidents).isEmpty();
    }

    @Test
    void cancellationOfAnUnknownOrFinishedRequestIsIgnored() throws Exception {
        start(builder());
        peer.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":999}}");
        peer.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":[1]}}");
        peer.send("{\"jsonrpc\":\"2.0\",\"id\":12,\"method\":\"echo\"}");
        assertThat(peer.next().get("id").asInt()).isEqualTo(12);
        peer.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":12}}");
        peer.send("{\"jsonrpc\":\"2.0\",\"id\":13,\"method\":\"ping\"}");
        assertThat(peer.next().get("id").asInt()).isEqualTo(13);
        assertThat(peer.queued()).isZero();
    }

    @Test
    void progressIsSentOnlyForALiveTokenAndOnlyWhenIncreasing() throws Exception {
        start(builder());
        peer.send("{\"jsonrpc\":\"2.0\",\"id\":20,\"method\":\"progressing\"}");
        assertThat(peer.next().get("id").asInt()).as("no token, so no progress").isEqualTo(20);
        peer.send("{\"jsonrpc\":\"2.0\",\"id\":21,\"method\":\"progressing\",\"params\":{\"_meta\":"
                + "{\"progressToken\":\"tok\"}}}");
        JsonNode first = peer.next();
        JsonNode second = peer.next();
        JsonNode reply = peer.next();
        assertThat(first.get("method").stringValue()).isEqualTo("notifications/progress");
        assertThat(first.get("params").get("progressToken").stringValue()).isEqualTo("tok");
        assertThat(first.get("params").get("progress").asDouble()).isEqualTo(1);
        assertThat(second.get("params").get("progress").asDouble()).isEqualTo(2);
        assertThat(reply.get("id").asInt()).isEqualTo(21);
        assertThat(peer.queued()).isZero();
    }

    @Test
    void noProgressAfterTheResponse() throws Exception {
        RequestContext[] captured = new RequestContext[1];
        start(builder().onRequest("capture", ctx -> {
            captured[0] = ctx;
            return Json.object();
        }));
        peer.send("{\"jsonrpc\":\"2.0\",\"id\":22,\"method\":\"capture\",\"params\":{\"_meta\":{\"progressToken\":1}}}");
        assertThat(peer.next().get("id").asInt()).isEqualTo(22);
        captured[0].progress(5, OptionalDouble.empty(), Optional.empty());
        peer.send("{\"jsonrpc\":\"2.0\",\"id\":23,\"method\":\"ping\"}");
        assertThat(peer.next().get("id").asInt()).isEqualTo(23);
        assertThat(peer.queued()).isZero();
    }

    @Test
    void aResponseWithAnUnknownIdIsDropped() throws Exception {
        start(builder());
        peer.send("{\"jsonrpc\":\"2.0\",\"id\":424242,\"result\":{}}");
        peer.send("{\"jsonrpc\":\"2.0\",\"id\":24,\"method\":\"ping\"}");
        assertThat(peer.next().get("id").asInt()).isEqualTo(24);
        assertThat(peer.queued()).isZero();
    }

    @Test
    void aDuplicateIdInFlightIsRejectedWhileTheFirstStillGetsItsAnswer() throws Exception {
        start(builder());
        peer.send("{\"jsonrpc\":\"2.0\",\"id\":30,\"method\":\"slow\"}");
        assertThat(slowStarted.await(20, TimeUnit.SECONDS)).isTrue();
        peer.send("{\"jsonrpc\":\"2.0\",\"id\":30,\"method\":\"echo\"}");
        JsonNode rejected = peer.next();
        assertThat(rejected.get("error").get("code").asInt()).isEqualTo(-32600);
        release.countDown();
        assertThat(peer.next().get("result").get("slow").asBoolean()).isTrue();
    }

    @Test
    void batchesAreRejectedUnlessTheVersionAllowsThem() throws Exception {
        start(builder());
        peer.send("[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]");
        JsonNode reply = peer.next();
        assertThat(reply.isObject()).isTrue();
        assertThat(reply.get("error").get("code").asInt()).isEqualTo(-32600);
        assertThat(reply.get("id").isNull()).isTrue();
    }

    @Test
    void anAllowedBatchIsAnsweredWithAnArrayOfTheRequestsReplies() throws Exception {
        start(builder());
        session.allowBatches(true);
        peer.send("[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"echo\",\"params\":{\"n\":1}},"
                + "{\"jsonrpc\":\"2.0\",\"method\":\"echo\"},"
                + "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"unknown\"},"
                + "{\"foo\":1}]");
        JsonNode reply = peer.next();
        assertThat(reply.isArray()).isTrue();
        assertThat(reply.size()).isEqualTo(3);
        assertThat(reply.get(0).get("id").asInt()).isEqualTo(1);
        assertThat(reply.get(1).get("error").get("code").asInt()).isEqualTo(-32601);
        assertThat(reply.get(2).get("error").get("code").asInt()).isEqualTo(-32600);
    }

    @Test
    void aBatchOfOnlyNotificationsGetsNoReply() throws Exception {
        start(builder());
        session.allowBatches(true);
        peer.send("[{\"jsonrpc\":\"2.0\",\"method\":\"a\"},{\"jsonrpc\":\"2.0\",\"method\":\"b\"}]");
        peer.send("{\"jsonrpc\":\"2.0\",\"id\":40,\"method\":\"ping\"}");
        assertThat(peer.next().get("id").asInt()).isEqualTo(40);
        assertThat(peer.queued()).isZero();
    }

    @Test
    void aGateDecidesForEveryRequestPingIncluded() throws Exception {
        // Ping is answered before initialize in the session-based versions and is unknown in the
        // stateless ones: the server's gate decides, so the session must not exempt it.
        start(builder());
        session.gate(request -> "ping".equals(request.method()) ? Optional.empty()
                : Optional.of(ProtocolException.invalidRequest("Invalid request: not initialized")));
        peer.send("{\"jsonrpc\":\"2.0\",\"id\":50,\"method\":\"echo\"}");
        assertThat(peer.next().get("error").get("code").asInt()).isEqualTo(-32600);
        peer.send("{\"jsonrpc\":\"2.0\",\"id\":51,\"method\":\"ping\"}");
        assertThat(peer.next().get("result").isObject()).isTrue();
        session.gate(request -> Optional.of(ProtocolException.invalidRequest("Invalid request: refused")));
        peer.send("{\"jsonrpc\":\"2.0\",\"id\":52,\"method\":\"ping\"}");
        assertThat(peer.next().get("error").get("code").asInt()).isEqualTo(-32600);
    }

    @Test
    void closingTheTransportInterruptsRunningHandlers() throws Exception {
        start(builder());
        peer.send("{\"jsonrpc\":\"2.0\",\"id\":60,\"method\":\"slow\"}");
        assertThat(slowStarted.await(20, TimeUnit.SECONDS)).isTrue();
        peer.close();
        session.closed().get(20, TimeUnit.SECONDS);
        assertThat(slowInterrupted.await(20, TimeUnit.SECONDS)).isTrue();
    }

    private void awaitNoInFlight() throws InterruptedException {
        assertThat(session.awaitAnswered(Duration.ofSeconds(10))).isTrue();
        assertThat(session.unansweredCount()).isZero();
    }
}
