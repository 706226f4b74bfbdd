package dev.warden.gateway;

import static dev.warden.gateway.TracedGateway.CLIENT_SPAN;
import static dev.warden.gateway.TracedGateway.CLIENT_TRACE;
import static dev.warden.gateway.TracedGateway.CLIENT_TRACEPARENT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.warden.client.McpClient;
import dev.warden.client.ReconnectPolicy;
import dev.warden.core.error.PeerErrorException;
import dev.warden.core.incident.Incident;
import dev.warden.core.incident.IncidentSink;
import dev.warden.core.json.Json;
import dev.warden.core.mcp.ProtocolVersion;
import dev.warden.core.session.RequestOptions;
import dev.warden.core.transport.InMemoryTransport;
import dev.warden.gateway.auditlog.AuditSink;
import dev.warden.gateway.config.Limits;
import dev.warden.gateway.config.Upstream;
import dev.warden.server.McpServer;
import dev.warden.server.ToolResult;
import dev.warden.server.ToolSpec;
import dev.warden.telemetry.McpNames;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One trace through the gateway: the client's context in a request's {@code _meta} is the parent
 * of the gateway's SERVER span, whose child, a CLIENT span, is what the upstream is told in its
 * own {@code _meta}; each ends with the code and ref the client received, the gateway's refusals
 * too, and no span holds what an upstream leaked.
 */
class GatewayTracesTest {

    /** What the upstream leaks, inside a server path the sanitizer redacts: found in the incident only. */
    private static final String CANARY = "canary7q3x";

    private final TracedGateway traced = new TracedGateway();
    private final List<Incident> incidents = new CopyOnWriteArrayList<>();
    private final List<JsonNode> sent = TracedGateway.Tap.frames();
    private final CountDownLatch release = new CountDownLatch(1);
    private final McpServer upstream = McpServer.builder("crm", "1.0.0").incidents(IncidentSink.all())
            .tool(ToolSpec.builder("lookup").handler(c -> ToolResult.text("found")).build())
            .tool(ToolSpec.builder("leaky").handler(c -> ToolResult.text("never")).build())
            .tool(ToolSpec.builder("crashy").handler(c -> ToolResult.text("never")).build())
            .tool(ToolSpec.builder("hangs").handler(c -> {
                release.await(30, TimeUnit.SECONDS);
                return ToolResult.text("late");
            }).build())
            .build();
    private Gateway gateway;
    private McpClient client;

    private void start(Optional<Limits.Rate> perClient) {
        start(perClient, ProtocolVersion.latest(), AuditSink.none());
    }

    private void start(Optional<Limits.Rate> perClient, ProtocolVersion version, AuditSink audit) {
        Upstream u = Upstream.builder("crm", () -> {
            InMemoryTransport.Pair pair = InMemoryTransport.pair();
            upstream.connect(pair.right());
            return new TracedGateway.Tap(new AnsweringCalls(pair.left(), Map.of(
                    "leaky", a -> AnsweringCalls.error(-32603,
                            "TypeError: cannot read 'rows' at /srv/" + CANARY + "/db/orders.js:41:7"),
                    "crashy", a -> AnsweringCalls.CRASH), new AtomicInteger()), sent);
        }).timeout(Duration.ofMillis(300)).reconnect(ReconnectPolicy.none()).build();
        Gateway.Builder b = Gateway.builder().upstream(u).incidents(incidents::add).telemetry(traced.telemetry)
                .audit(audit, true);
        perClient.ifPresent(b::perClient);
        gateway = b.build();
        traced.listed(gateway);
        client = McpClient.builder("model", "1").requestTimeout(Duration.ofSeconds(30)).protocolVersion(version)
                .connect(ViaGateway.to(gateway));
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

    /** A tools/call whose {@code _meta} carries the client's trace context, and one more member the upstream must get. */
    private JsonNode call(String tool) throws Exception {
        ObjectNode params = Json.object().put("name", tool);
        params.putObject("arguments");
        params.putObject("_meta").put("traceparent", CLIENT_TRACEPARENT).put("tracestate", "vendor=kept")
                .put("com.example/tenant", "acme");
        return client.requestAsync("tools/call", params, RequestOptions.ofToolCallDefaults()).get(30, TimeUnit.SECONDS);
    }

    @Test
    void theClientsContextParentsTheGatewaysServerSpanWhoseChildIsWhatTheUpstreamIsTold() throws Exception {
        start(Optional.empty());
        assertThat(call("lookup").path("isError").asBoolean(false)).isFalse();

        SpanData server = traced.only(SpanKind.SERVER, "tools/call lookup");
        assertThat(server.getTraceId()).isEqualTo(CLIENT_TRACE);
        assertThat(server.getParentSpanId()).isEqualTo(CLIENT_SPAN);
        assertThat(server.getAttributes().get(McpNames.MCP_METHOD_NAME)).isEqualTo("tools/call");
        assertThat(server.getAttributes().get(McpNames.GEN_AI_TOOL_NAME)).isEqualTo("lookup");
        assertThat(server.getAttributes().get(McpNames.GEN_AI_OPERATION_NAME)).isEqualTo(McpNames.EXECUTE_TOOL);
        assertThat(server.getAttributes().get(McpNames.JSONRPC_REQUEST_ID)).isNotBlank();
        assertThat(server.getAttributes().get(McpNames.WARDEN_UPSTREAM)).isEqualTo("crm");
        assertThat(server.getAttributes().get(McpNames.MCP_PROTOCOL_VERSION)).isNotBlank();
        assertThat(server.getStatus().getStatusCode()).isEqualTo(StatusCode.UNSET);

        SpanData upstreamCall = traced.only(SpanKind.CLIENT, "tools/call lookup");
        assertThat(upstreamCall.getTraceId()).isEqualTo(CLIENT_TRACE);
        assertThat(upstreamCall.getParentSpanId()).isEqualTo(server.getSpanId());
        assertThat(upstreamCall.getAttributes().get(McpNames.WARDEN_UPSTREAM)).isEqualTo("crm");
        assertThat(upstreamCall.getAttributes().get(McpNames.GEN_AI_TOOL_NAME)).isEqualTo("lookup");

        // The upstream is told the gateway's client span, not the client's own; the rest of _meta as it came.
        JsonNode toUpstream = TracedGateway.calls(sent).get(0);
        assertThat(upstreamCall.getAttributes().get(McpNames.JSONRPC_REQUEST_ID))
                .isEqualTo(toUpstream.path("id").asString(toUpstream.path("id").toString()));
        JsonNode meta = toUpstream.at("/params/_meta");
        assertThat(meta.path("traceparent").asString())
                .startsWith("00-" + CLIENT_TRACE + "-" + upstreamCall.getSpanId() + "-")
                .doesNotContain(CLIENT_SPAN);
        assertThat(meta.path("tracestate").asString()).isEqualTo("vendor=kept");
        assertThat(meta.path("com.example/tenant").asString()).isEqualTo("acme");
    }

    @Test
    void aRequestWithoutContextStartsATraceTheUpstreamContinues() throws Exception {
        start(Optional.empty());
        client.callTool("lookup", Json.object());

        SpanData server = traced.only(SpanKind.SERVER, "tools/call lookup");
        assertThat(server.getParentSpanContext().isValid()).isFalse();
        SpanData upstreamCall = traced.only(SpanKind.CLIENT, "tools/call lookup");
        assertThat(upstreamCall.getParentSpanId()).isEqualTo(server.getSpanId());
        assertThat(TracedGateway.calls(sent).get(0).at("/params/_meta/traceparent").asString())
                .startsWith("00-" + server.getTraceId() + "-" + upstreamCall.getSpanId() + "-");
    }

    /**
     * A client's {@code tracestate} belongs to its own {@code traceparent}: where the gateway's span
     * carries none (no valid parent came), the upstream is told the gateway's context only, not the
     * client's vendor state under the gateway's span.
     */
    @Test
    void aClientsTracestateDoesNotReachTheUpstreamUnderTheGatewaysContext() throws Exception {
        start(Optional.empty());
        ObjectNode params = Json.object().put("name", "lookup");
        params.putObject("arguments");
        params.putObject("_meta").put("traceparent", "00-not-a-valid-context-01").put("tracestate", "vendor=orphan")
                .put("com.example/tenant", "acme");
        client.requestAsync("tools/call", params, RequestOptions.ofToolCallDefaults()).get(30, TimeUnit.SECONDS);

        SpanData server = traced.only(SpanKind.SERVER, "tools/call lookup");
        assertThat(server.getParentSpanContext().isValid()).isFalse();
        assertThat(server.getSpanContext().getTraceState().isEmpty()).isTrue();
        SpanData upstreamCall = traced.only(SpanKind.CLIENT, "tools/call lookup");
        JsonNode meta = TracedGateway.calls(sent).get(0).at("/params/_meta");
        assertThat(meta.path("traceparent").asString())
                .startsWith("00-" + server.getTraceId() + "-" + upstreamCall.getSpanId() + "-");
        assertThat(meta.has("tracestate")).as("the client's tracestate in %s", meta).isFalse();
        assertThat(meta.path("com.example/tenant").asString()).isEqualTo("acme");
    }

    @Test
    void theGatewaysRefusalEndsItsSpanWithTheCodeAndRefTheClientReceivedAndNoUpstreamCall() throws Exception {
        start(Optional.of(new Limits.Rate(1, Duration.ofHours(1))));
        call("lookup");
        JsonNode refused = call("lookup");
        assertThat(refused.path("isError").asBoolean()).isTrue();
        JsonNode error = refused.at("/structuredContent/error");
        assertThat(error.path("code").asString()).isEqualTo("RATE_LIMITED");

        List<SpanData> servers = traced.spans(SpanKind.SERVER, "tools/call lookup");
        assertThat(servers).hasSize(2);
        SpanData span = servers.get(1);
        assertThat(span.getParentSpanId()).isEqualTo(CLIENT_SPAN);
        assertThat(span.getAttributes().get(McpNames.ERROR_TYPE)).isEqualTo(McpNames.TOOL_ERROR);
        assertThat(span.getAttributes().get(McpNames.WARDEN_ERROR_CODE)).isEqualTo("RATE_LIMITED");
        assertThat(span.getAttributes().get(McpNames.WARDEN_REF)).isEqualTo(error.path("ref").asString());
        assertThat(span.getAttributes().get(McpNames.WARDEN_UPSTREAM)).isEqualTo("crm");
        assertThat(span.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
        assertThat(traced.spans(SpanKind.CLIENT, "tools/call lookup")).hasSize(1); // the refused one never went
    }

    /** Refused as the audit log cannot write (fail-closed): the session's renderer gives the ref, after the handler. */
    @Test
    void aRefusalWhoseRefTheSessionGaveCarriesThatRef() {
        start(Optional.empty(), ProtocolVersion.latestSessionBased(), record -> {
            if (!"tools/list".equals(record.method())) { // the lister's listing is written, then the disk fills
                throw new java.io.IOException("disk full");
            }
        });
        assertThatThrownBy(() -> call("lookup")).cause()
                .isInstanceOfSatisfying(PeerErrorException.class, e -> {
                    JsonNode data = e.error().data().orElseThrow();
                    assertThat(data.path("code").asString()).isEqualTo("BLOCKED");
                    SpanData span = traced.spans(SpanKind.SERVER, "tools/call lookup").getLast();
                    assertThat(span.getAttributes().get(McpNames.ERROR_TYPE))
                            .isEqualTo(Integer.toString(e.error().code()));
                    assertThat(span.getAttributes().get(McpNames.WARDEN_ERROR_CODE))
                            .isEqualTo(data.path("code").asString());
                    assertThat(span.getAttributes().get(McpNames.WARDEN_REF)).isEqualTo(data.path("ref").asString())
                            .isNotBlank();
                    assertThat(span.getStatus().getDescription()).isEqualTo(e.error().message());
                });
    }

    @Test
    void whatAnUpstreamLeaksReachesTheIncidentAndNoSpan() throws Exception {
        start(Optional.empty());
        JsonNode answer = call("leaky");
        assertThat(answer.path("isError").asBoolean()).isTrue();
        String ref = answer.at("/structuredContent/error/ref").asString();
        assertThat(answer.toString()).doesNotContain(CANARY);
        assertThat(incidents).anySatisfy(i -> assertThat(i.toString()).contains(CANARY));

        SpanData server = traced.only(SpanKind.SERVER, "tools/call leaky");
        assertThat(server.getAttributes().get(McpNames.WARDEN_REF)).isEqualTo(ref);
        SpanData upstreamCall = traced.only(SpanKind.CLIENT, "tools/call leaky");
        assertThat(upstreamCall.getAttributes().get(McpNames.ERROR_TYPE)).isEqualTo("-32603");
        assertThat(upstreamCall.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
        assertThat(traced.spans()).isNotEmpty().allSatisfy(s ->
                assertThat(TracedGateway.everything(s)).doesNotContain(CANARY).doesNotContain("/srv/"));
    }

    @Test
    void anUpstreamThatCrashesEndsTheCallsSpanWithTheGatewaysCodeAndRef() throws Exception {
        start(Optional.empty());
        JsonNode answer = call("crashy");
        JsonNode error = answer.at("/structuredContent/error");
        assertThat(error.path("code").asString()).isEqualTo("UPSTREAM_ERROR");

        SpanData upstreamCall = traced.only(SpanKind.CLIENT, "tools/call crashy");
        assertThat(upstreamCall.getAttributes().get(McpNames.ERROR_TYPE)).isEqualTo("connection_closed");
        assertThat(upstreamCall.getAttributes().get(McpNames.WARDEN_ERROR_CODE)).isEqualTo("UPSTREAM_ERROR");
        assertThat(upstreamCall.getAttributes().get(McpNames.WARDEN_REF)).isEqualTo(error.path("ref").asString());
        SpanData server = traced.only(SpanKind.SERVER, "tools/call crashy");
        assertThat(server.getAttributes().get(McpNames.WARDEN_REF)).isEqualTo(error.path("ref").asString());
        assertThat(upstreamCall.getParentSpanId()).isEqualTo(server.getSpanId());
    }

    @Test
    void anUpstreamThatHangsEndsTheCallsSpanAsATimeout() throws Exception {
        start(Optional.empty());
        JsonNode error = call("hangs").at("/structuredContent/error");
        assertThat(error.path("code").asString()).isEqualTo("TIMEOUT");

        SpanData upstreamCall = traced.only(SpanKind.CLIENT, "tools/call hangs");
        assertThat(upstreamCall.getAttributes().get(McpNames.ERROR_TYPE)).isEqualTo("timeout");
        assertThat(upstreamCall.getAttributes().get(McpNames.WARDEN_ERROR_CODE)).isEqualTo("TIMEOUT");
        assertThat(upstreamCall.getAttributes().get(McpNames.WARDEN_REF)).isEqualTo(error.path("ref").asString());
        assertThat(traced.only(SpanKind.SERVER, "tools/call hangs").getAttributes().get(McpNames.WARDEN_ERROR_CODE))
                .isEqualTo("TIMEOUT");
    }

    @Test
    void everyRequestOfTheClientHasItsSpanInitializeAndListingsToo() {
        start(Optional.empty(), ProtocolVersion.latestSessionBased(), AuditSink.none());
        client.listTools();
        assertThat(traced.spans(SpanKind.SERVER, "initialize")).hasSize(1);
        SpanData list = traced.only(SpanKind.SERVER, "tools/list");
        assertThat(list.getAttributes().get(McpNames.WARDEN_UPSTREAM)).isNull(); // a listing may span upstreams
        assertThat(traced.spans(SpanKind.CLIENT, "tools/list")).isNotEmpty()
                .allSatisfy(s -> assertThat(s.getAttributes().get(McpNames.WARDEN_UPSTREAM)).isEqualTo("crm"));
    }
}
