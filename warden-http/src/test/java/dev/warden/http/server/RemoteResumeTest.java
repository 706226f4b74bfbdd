package dev.warden.http.server;

import static dev.warden.http.server.HttpPeer.INITIALIZED;
import static dev.warden.http.server.HttpPeer.jsonHeaders;
import static dev.warden.http.server.HttpPeer.sessionHeaders;
import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.cluster.InProcessReplicas;
import dev.warden.core.cluster.ReplicaBus;
import dev.warden.core.incident.IncidentSink;
import dev.warden.core.json.Json;
import dev.warden.server.McpServer;
import dev.warden.server.ToolResult;
import dev.warden.server.ToolSpec;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * A client resuming a portable session's stream ({@code Last-Event-ID}) on another replica than
 * the one serving it, while that one is up (a round-robin balancer sends two resumptions in three
 * elsewhere): the replica it reaches reads the stream from the serving one across the bus, and
 * the client gets the events it missed, then each new one, with the serving replica's event ids,
 * then the stream's end.
 */
class RemoteResumeTest {

    private static final SessionKeys KEYS = SessionKeys.parse(SessionKeys.newKeyLine("k1"));
    private static final String INIT = """
            {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25",\
            "capabilities":{},"clientInfo":{"name":"resuming-client","version":"1"}}}""";
    private static final String CALL = """
            {"jsonrpc":"2.0","id":"call-7","method":"tools/call","params":{"name":"%s","arguments":{},\
            "_meta":{"progressToken":"p7"}}}""";

    private final InProcessReplicas hub = InProcessReplicas.hub();
    /** Lets the tool "steps" take its second step and answer. */
    private final CountDownLatch go = new CountDownLatch(1);
    /** The tool "steps" was cancelled while waiting. */
    private final CountDownLatch cancelled = new CountDownLatch(1);
    private static final Duration RESUME_WINDOW = Duration.ofSeconds(2);
    /** The replicas' resume windows' timer: it passes only when a test advances it, never while a client resumes. */
    private final ManualTimer resumeTimer = new ManualTimer();
    private final List<McpHttpServer> servers = new ArrayList<>();

    private McpHttpServer replica(String id) throws Exception {
        return replica(id, hub.join(id));
    }

    /** A replica whose streams wait {@link #RESUME_WINDOW} to be resumed, sending keep-alives every 500 ms. */
    private McpHttpServer replica(String id, ReplicaBus bus) throws Exception {
        McpServer server = McpServer.builder("replica", "1").incidents(IncidentSink.all())
                .tool(ToolSpec.builder("steps").handler(call -> {
                    call.context().progress(1, 2, "first step");
                    try {
                        go.await(20, TimeUnit.SECONDS); // bounds a failure only
                    } catch (InterruptedException e) {
                        cancelled.countDown();
                        throw e;
                    }
                    call.context().progress(2, 2, "second step");
                    return ToolResult.text("done");
                }).build())
                .tool(ToolSpec.builder("quick").handler(call -> ToolResult.text("quick")).build())
                .tool(ToolSpec.builder("polled").handler(call -> {
                    call.context().progress(1, 1, "the only step");
                    call.context().closeStream(); // the client is to resume for the answer
                    return ToolResult.text("answered while nobody listened");
                }).build())
                .build();
        McpHttpServer http = McpHttpServer.builder().onSession(server::connect)
                .portableSessions(KEYS, Duration.ofHours(1)).replicas(bus).resumeWindow(RESUME_WINDOW)
                .resumeTimer(resumeTimer)
                .keepAlive(Duration.ofMillis(500)).build().start();
        servers.add(http);
        return http;
    }

    @AfterEach
    void stop() {
        go.countDown();
        HttpPeer.closeAll();
        servers.forEach(McpHttpServer::close);
    }

    private static String open(McpHttpServer on) throws Exception {
        HttpPeer peer = new HttpPeer(on.endpoint());
        String session = peer.send(peer.post(INIT, jsonHeaders())).headers().firstValue("Mcp-Session-Id").orElseThrow();
        peer.send(peer.post(INITIALIZED, sessionHeaders(session)));
        return session;
    }

    /** Calls {@code tool} on {@code on}, reads the stream's priming event and cuts the connection; its id. */
    private static String callCutAfterPriming(McpHttpServer on, String session, String tool) throws Exception {
        HttpPeer peer = new HttpPeer(on.endpoint());
        HttpResponse<Stream<String>> response = peer.stream(peer.post(CALL.formatted(tool), sessionHeaders(session)));
        String priming = HttpPeer.events(response.body().iterator(), 1).get(0).id().orElseThrow();
        response.body().close();
        return priming;
    }

    private static HttpRequest.Builder resume(McpHttpServer on, String session, String lastEventId) {
        Map<String, String> headers = new HashMap<>(sessionHeaders(session));
        headers.remove("Content-Type");
        headers.put("Accept", "text/event-stream");
        headers.put("Last-Event-ID", lastEventId);
        HttpRequest.Builder get = HttpRequest.newBuilder(on.endpoint()).timeout(Duration.ofSeconds(20)).GET();
        headers.forEach(get::header);
        return get;
    }

    private static String streamOf(String eventId) {
        return eventId.substring(0, eventId.lastIndexOf('_'));
    }

    private static JsonNode json(HttpPeer.Event event) {
        return Json.mapper().readTree(event.data());
    }

    @Test
    void aStreamCutAfterItsPrimingEventIsResumedOnAnotherReplicaWithTheServingReplicasEventIds() throws Exception {
        McpHttpServer a = replica("a");
        McpHttpServer b = replica("b");
        String session = open(a);
        String priming = callCutAfterPriming(a, session, "steps");
        HttpPeer peer = new HttpPeer(b.endpoint());

        HttpResponse<Stream<String>> resumed = peer.stream(resume(b, session, priming));
        assertThat(resumed.statusCode()).isEqualTo(200);
        Iterator<String> lines = resumed.body().iterator();
        List<HttpPeer.Event> missed = HttpPeer.events(lines, 1);
        go.countDown();
        List<HttpPeer.Event> rest = HttpPeer.events(lines, Integer.MAX_VALUE);

        assertThat(json(missed.get(0)).at("/params/message").asString()).isEqualTo("first step");
        assertThat(rest).hasSize(2);
        assertThat(json(rest.get(0)).at("/params/message").asString()).isEqualTo("second step");
        assertThat(json(rest.get(1)).get("id").asString()).isEqualTo("call-7");
        assertThat(json(rest.get(1)).at("/result/content/0/text").asString()).isEqualTo("done");
        assertThat(List.of(missed.get(0), rest.get(0), rest.get(1))).extracting(e -> e.id().orElseThrow())
                .containsExactly(streamOf(priming) + "_1", streamOf(priming) + "_2", streamOf(priming) + "_3");
    }

    @Test
    void aStreamThatEndedWhileNobodyListenedGivesItsRemainingEventsThenEnds() throws Exception {
        McpHttpServer a = replica("a");
        McpHttpServer b = replica("b");
        String session = open(a);
        String priming = callCutAfterPriming(a, session, "polled");

        HttpResponse<String> resumed = new HttpPeer(b.endpoint()).send(resume(b, session, priming));

        assertThat(resumed.statusCode()).isEqualTo(200);
        List<HttpPeer.Event> events = HttpPeer.events(resumed.body());
        assertThat(events).extracting(e -> e.id().orElseThrow())
                .containsExactly(streamOf(priming) + "_1", streamOf(priming) + "_2");
        assertThat(json(events.get(1)).at("/result/content/0/text").asString())
                .isEqualTo("answered while nobody listened");
    }

    @Test
    void aStreamDeliveredInFullIsResumedElsewhereAsItsEndNotRefused() throws Exception {
        // The TypeScript SDK resumes a call's stream that ended without an answer (the call was cancelled).
        McpHttpServer a = replica("a");
        McpHttpServer b = replica("b");
        String session = open(a);
        HttpPeer peer = new HttpPeer(a.endpoint());
        List<HttpPeer.Event> delivered = HttpPeer.events(peer.send(peer.post(CALL.formatted("quick"),
                sessionHeaders(session))).body());

        HttpResponse<String> resumed = new HttpPeer(b.endpoint())
                .send(resume(b, session, delivered.get(delivered.size() - 1).id().orElseThrow()));

        assertThat(resumed.statusCode()).isEqualTo(200);
        assertThat(HttpPeer.events(resumed.body())).isEmpty();
    }

    @Test
    void aStreamTheServingReplicaDoesNotHoldIsRefusedAsAnUnknownOne() throws Exception {
        McpHttpServer a = replica("a");
        McpHttpServer b = replica("b");
        String session = open(a);
        String priming = callCutAfterPriming(a, session, "polled");
        String unknown = streamOf(priming).replaceFirst("-\\d+\\.", "-999.") + "_0";

        HttpResponse<String> resumed = new HttpPeer(b.endpoint()).send(resume(b, session, unknown));

        assertThat(resumed.statusCode()).isEqualTo(400);
        assertThat(resumed.body()).contains("names no stream of this session");
    }

    @Test
    void anotherSessionsStreamIsRefusedAsAnUnknownOne() throws Exception {
        McpHttpServer a = replica("a");
        McpHttpServer b = replica("b");
        String session = open(a);
        String other = open(a); // held on the serving replica too
        String priming = callCutAfterPriming(a, session, "steps");

        HttpResponse<String> resumed = new HttpPeer(b.endpoint()).send(resume(b, other, priming));

        assertThat(resumed.statusCode()).isEqualTo(400);
        assertThat(resumed.body()).contains("names no stream of this session");
    }

    @Test
    void whenTheServingReplicaStopsMidwayTheRequestsStillOwedGetARetryableError() throws Exception {
        McpHttpServer a = replica("a");
        McpHttpServer b = replica("b");
        String session = open(a);
        String priming = callCutAfterPriming(a, session, "steps");
        HttpResponse<Stream<String>> resumed = new HttpPeer(b.endpoint()).stream(resume(b, session, priming));
        Iterator<String> lines = resumed.body().iterator();
        assertThat(HttpPeer.events(lines, 1)).extracting(e -> e.id().orElseThrow())
                .containsExactly(streamOf(priming) + "_1");

        hub.stop("a"); // killed: the answer it would have sent is gone
        List<HttpPeer.Event> rest = HttpPeer.events(lines, Integer.MAX_VALUE);

        assertThat(rest).hasSize(1);
        assertThat(rest.get(0).id()).as("nothing to resume after it").isEmpty();
        JsonNode error = json(rest.get(0));
        assertThat(error.get("id").asString()).isEqualTo("call-7");
        assertThat(error.at("/error/code").asInt()).isEqualTo(-32603);
        assertThat(error.at("/error/data/retryable").asBoolean()).isTrue();
    }

    @Test
    void aLostMessageEndsTheResumptionCleanlyAndResumingAgainGetsTheRest() throws Exception {
        McpHttpServer a = replica("a", new LossyBus(hub.join("a"), "\"n\":2,")); // the second event forwarded
        McpHttpServer b = replica("b");
        String session = open(a);
        String priming = callCutAfterPriming(a, session, "steps");
        HttpResponse<Stream<String>> first = new HttpPeer(b.endpoint()).stream(resume(b, session, priming));
        Iterator<String> lines = first.body().iterator();
        List<HttpPeer.Event> before = HttpPeer.events(lines, 1);
        go.countDown();

        assertThat(HttpPeer.events(lines, Integer.MAX_VALUE)).as("ended at the gap").isEmpty();
        List<HttpPeer.Event> rest = HttpPeer.events(new HttpPeer(b.endpoint())
                .send(resume(b, session, before.get(0).id().orElseThrow())).body());
        assertThat(rest).extracting(e -> e.id().orElseThrow())
                .containsExactly(streamOf(priming) + "_2", streamOf(priming) + "_3");
        assertThat(json(rest.get(1)).at("/result/content/0/text").asString()).isEqualTo("done");
    }

    @Test
    void aClientThatLeavesTheOtherReplicaLetsTheCallBeCancelledAsIfItHadLeftTheServingOne() throws Exception {
        McpHttpServer a = replica("a", hub.join("a"));
        McpHttpServer b = replica("b");
        String session = open(a);
        String priming = callCutAfterPriming(a, session, "steps");
        HttpResponse<Stream<String>> resumed = new HttpPeer(b.endpoint()).stream(resume(b, session, priming));
        HttpPeer.events(resumed.body().iterator(), 1);

        resumed.body().close(); // and never comes back: after the resume window the call is cancelled

        assertThat(resumeTimer.passWindowsUntil(RESUME_WINDOW, cancelled)).isTrue();
    }

    @Test
    void withoutOtherReplicasAResumptionOfAnUnknownStreamIsRefusedAsAlways() throws Exception {
        McpServer server = McpServer.builder("single", "1").incidents(IncidentSink.all()).build();
        McpHttpServer single = McpHttpServer.builder().onSession(server::connect)
                .portableSessions(KEYS, Duration.ofHours(1)).build().start();
        servers.add(single);
        String session = open(single);

        HttpResponse<String> resumed = new HttpPeer(single.endpoint())
                .send(resume(single, session, "a.tag-1.Wzdd_0"));

        assertThat(resumed.statusCode()).isEqualTo(400);
    }

    /** A replica's bus that loses the first message it sends whose body holds {@code marker} (at most once, as the bus may). */
    private record LossyBus(ReplicaBus bus, String marker, java.util.concurrent.atomic.AtomicBoolean lost)
            implements ReplicaBus {
        LossyBus(ReplicaBus bus, String marker) {
            this(bus, marker, new java.util.concurrent.atomic.AtomicBoolean());
        }

        @Override
        public boolean send(String to, String topic, String body) {
            if (body.contains(marker) && lost.compareAndSet(false, true)) {
                return true; // sent, and lost on the way
            }
            return bus.send(to, topic, body);
        }

        @Override
        public String self() {
            return bus.self();
        }

        @Override
        public boolean broadcast(String topic, String body) {
            return bus.broadcast(topic, body);
        }

        @Override
        public void on(String topic, Handler handler) {
            bus.on(topic, handler);
        }

        @Override
        public boolean alive(String id) {
            return bus.alive(id);
        }

        @Override
        public boolean put(String key, String field, String value, Duration ttl) {
            return bus.put(key, field, value, ttl);
        }

        @Override
        public boolean remove(String key, String field) {
            return bus.remove(key, field);
        }

        @Override
        public java.util.Optional<Map<String, String>> read(String key) {
            return bus.read(key);
        }

        @Override
        public void close() {
            bus.close();
        }
    }
}
