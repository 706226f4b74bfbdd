package dev.warden.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.incident.IncidentSink;
import dev.warden.core.json.Json;
import dev.warden.core.transport.InMemoryTransport;
import dev.warden.core.transport.Transport;
import dev.warden.gateway.config.Limits;
import dev.warden.gateway.config.Upstream;
import dev.warden.server.McpServer;
import dev.warden.server.ToolResult;
import dev.warden.server.ToolSpec;
import dev.warden.telemetry.McpNames;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Calls of stateless (2026-07-28) clients parked while the upstream waits for their input hold a
 * place among the upstream's concurrent calls; one whose client never comes back gives it up once
 * it expires, whether or not anything else is parked after it, and no client parks without bound.
 */
class GatewayParkedCallsTest {

    private final McpServer upstream = McpServer.builder("asking", "1.0.0").incidents(IncidentSink.all())
            .tool(ToolSpec.builder("echo").handler(call -> ToolResult.text("echo")).build())
            .tool(ToolSpec.builder("ask").handler(call -> {
                ObjectNode params = Json.object();
                params.putArray("messages").addObject().put("role", "user").putObject("content")
                        .put("type", "text").put("text", "who are you?");
                params.put("maxTokens", 5);
                return ToolResult.text(call.context().requestClient("sampling/createMessage", params)
                        .path("content").path("text").asString());
            }).build())
            .build();
    private final MovableClock clock = new MovableClock();
    private final TracedGateway traced = new TracedGateway();
    private Gateway gateway;

    private void start(int maxConcurrent, int parkedTotal, int parkedPerClient) {
        start(new Limits(Limits.Breaker.ofDefaults(), maxConcurrent, Duration.ZERO, Optional.empty()), parkedTotal,
                parkedPerClient);
    }

    private void start(Limits limits, int parkedTotal, int parkedPerClient) {
        // Reached without server/discover: a session-based upstream, so questions park stateless calls.
        Upstream u = Upstream.builder("asking", () -> {
            InMemoryTransport.Pair pair = InMemoryTransport.pair();
            upstream.connect(pair.right());
            return new RefusingMethod(pair.left(), "server/discover", "{\"code\":-32601,\"message\":\"Method not found\"}");
        }).timeout(Duration.ofSeconds(30))
                .limits(limits).build();
        gateway = Gateway.builder().upstream(u).incidents(IncidentSink.all()).clock(clock)
                .parkedCalls(parkedTotal, parkedPerClient).telemetry(traced.telemetry).build();
        traced.listed(gateway);
    }

    @AfterEach
    void stop() {
        if (gateway != null) {
            gateway.close();
        }
    }

    private final BlockingQueue<JsonNode> received = new LinkedBlockingQueue<>();

    /** A raw stateless client from {@code address}: it reads the answers and never resumes anything. */
    private Transport from(String address) {
        return client(address, java.util.Optional.empty());
    }

    /** A raw stateless client authenticated as {@code subject}. */
    private Transport as(String subject) {
        return client("127.0.0.1", java.util.Optional.of(AsCaller.jwt(subject)));
    }

    private Transport client(String address, java.util.Optional<dev.warden.core.identity.Caller> caller) {
        return RawFrames.open(end -> gateway.connect(new AsCaller(end, address, caller)), received);
    }

    /** The next round of a parked {@code ask}: the sampling answer, under {@code requestState}. */
    private JsonNode resume(Transport t, int id, JsonNode parked) throws InterruptedException {
        String question = parked.path("inputRequests").propertyNames().iterator().next();
        t.send("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"ask\","
                + "\"arguments\":{},\"requestState\":" + parked.path("requestState") + ",\"inputResponses\":{\""
                + question + "\":{\"role\":\"assistant\",\"content\":{\"type\":\"text\",\"text\":\"alice's model\"},"
                + "\"model\":\"m\"}},\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
                + "\"io.modelcontextprotocol/clientCapabilities\":{\"sampling\":{}}}}}");
        JsonNode frame = received.poll(30, TimeUnit.SECONDS);
        assertThat(frame).as("an answer").isNotNull();
        assertThat(frame.path("id").asInt()).isEqualTo(id);
        return frame;
    }

    /** The upstream call outlives the round that started it: one CLIENT span, its parent the first round's. */
    @Test
    void aParkedCallsUpstreamSpanRunsFromItsFirstRoundToItsLast() throws Exception {
        start(8, 10, 5);
        Transport t = from("10.0.0.1");
        JsonNode parked = call(t, 1, "ask");
        assertThat(parked(parked)).isTrue();
        assertThat(traced.spans(SpanKind.CLIENT, "tools/call ask")).isEmpty();

        JsonNode last = resume(t, 2, parked);
        assertThat(last.path("result").path("content").get(0).path("text").asString()).isEqualTo("alice's model");

        List<SpanData> rounds = traced.spans(SpanKind.SERVER, "tools/call ask");
        assertThat(rounds).hasSize(2);
        SpanData upstreamCall = traced.only(SpanKind.CLIENT, "tools/call ask");
        assertThat(upstreamCall.getParentSpanId()).isEqualTo(rounds.get(0).getSpanId());
        assertThat(upstreamCall.getAttributes().get(McpNames.ERROR_TYPE)).isNull();
    }

    @Test
    void aCallOneSubjectParkedCannotBeResumedByAnotherAndStaysForItsOwner() throws Exception {
        start(8, 10, 5);
        JsonNode parked = call(as("alice"), 1, "ask");
        assertThat(parked(parked)).isTrue();

        JsonNode byBob = resume(as("bob"), 2, parked);

        assertThat(byBob.path("error").path("message").asString()).contains("requestState is unknown");
        JsonNode byAlice = resume(as("alice"), 3, parked);
        assertThat(byAlice.path("result").path("content").get(0).path("text").asString()).isEqualTo("alice's model");
    }

    @Test
    void callsOneSubjectParkedHoldItsShareAndItsNextIsRefusedWhileAnotherSubjectParks() throws Exception {
        // Eight places upstream (four for parked calls), two per client, no queue wait.
        start(new Limits(Limits.Breaker.ofDefaults(), 8, Duration.ZERO, Optional.empty()).withMaxConcurrentPerClient(2),
                10, 5);
        JsonNode first = call(as("alice"), 1, "ask");
        assertThat(parked(first)).as(first.toString()).isTrue();
        JsonNode second = call(as("alice"), 2, "ask");
        assertThat(parked(second)).as(second.toString()).isTrue();

        JsonNode third = call(as("alice"), 3, "ask");

        assertThat(third.path("isError").asBoolean()).as(third.toString()).isTrue();
        assertThat(third.toString()).contains("RATE_LIMITED").contains("maxConcurrentPerClient");
        assertThat(parked(call(as("bob"), 4, "ask"))).as("another subject still gets a place").isTrue();
    }

    private JsonNode call(Transport t, int id, String tool) throws InterruptedException {
        t.send("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool
                + "\",\"arguments\":{},\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
                + "\"io.modelcontextprotocol/clientCapabilities\":{\"sampling\":{}}}}}");
        JsonNode frame = received.poll(30, TimeUnit.SECONDS);
        assertThat(frame).as("an answer").isNotNull();
        assertThat(frame.path("id").asInt()).isEqualTo(id);
        return frame.path("result");
    }

    private static boolean parked(JsonNode result) {
        return "input_required".equals(result.path("resultType").asString(""));
    }

    @Test
    void parkedCallsNeverResumedGiveBackTheirPlacesOnceExpiredWithoutAnotherCallBeingParked() throws Exception {
        start(2, 100, 100);
        Transport t = from("10.0.0.1");
        assertThat(parked(call(t, 1, "ask"))).isTrue();
        assertThat(call(t, 2, "ask").toString()).as("the upstream's share of waiting calls is held")
                .contains("RATE_LIMITED");

        clock.advance(Duration.ofMinutes(5).plusSeconds(1));

        assertThat(parked(call(t, 3, "ask"))).as("the expired call gave its place back").isTrue();
    }

    @Test
    void callsWaitingForInputNeverTakeEveryPlaceOfTheirUpstream() throws Exception {
        start(4, 100, 100);
        assertThat(parked(call(from("10.0.0.1"), 1, "ask"))).isTrue();
        assertThat(parked(call(from("10.0.0.2"), 2, "ask"))).isTrue();

        JsonNode refused = call(from("10.0.0.3"), 3, "ask");
        JsonNode echo = call(from("10.0.0.4"), 4, "echo");

        assertThat(refused.at("/content/0/text").asString()).contains("RATE_LIMITED")
                .contains("This server has too many calls waiting for input");
        assertThat(echo.path("isError").asBoolean(false)).as(echo.toString()).isFalse();
        assertThat(echo.at("/content/0/text").asString()).isEqualTo("echo");
    }

    @Test
    void aClientParkingMoreThanItsShareIsRefusedAndOthersStillPark() throws Exception {
        start(64, 100, 2);
        Transport greedy = from("10.0.0.1");
        assertThat(parked(call(greedy, 1, "ask"))).isTrue();
        assertThat(parked(call(greedy, 2, "ask"))).isTrue();

        JsonNode refused = call(greedy, 3, "ask");

        assertThat(refused.path("isError").asBoolean(false)).as(refused.toString()).isTrue();
        assertThat(refused.at("/content/0/text").asString()).contains("RATE_LIMITED").contains("waiting for input")
                .contains("ref_");
        assertThat(parked(call(from("10.0.0.2"), 4, "ask"))).isTrue();
    }

    @Test
    void noMoreCallsAreParkedThanTheGatewayHoldsInAll() throws Exception {
        start(64, 2, 100);
        assertThat(parked(call(from("10.0.0.1"), 1, "ask"))).isTrue();
        assertThat(parked(call(from("10.0.0.2"), 2, "ask"))).isTrue();

        JsonNode refused = call(from("10.0.0.3"), 3, "ask");

        assertThat(refused.at("/content/0/text").asString()).contains("RATE_LIMITED").contains("waiting for input");
    }
}
