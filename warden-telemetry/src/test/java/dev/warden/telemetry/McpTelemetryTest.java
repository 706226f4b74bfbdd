package dev.warden.telemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.warden.core.error.ErrorCode;
import dev.warden.core.error.ErrorRenderer;
import dev.warden.core.error.Ref;
import dev.warden.core.error.VisibleFailure;
import dev.warden.core.json.Json;
import dev.warden.core.jsonrpc.JsonRpcError;
import dev.warden.core.jsonrpc.JsonRpcMessage;
import dev.warden.core.jsonrpc.RequestId;
import dev.warden.core.sanitize.Sanitizer;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.metrics.data.HistogramPointData;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

class McpTelemetryTest {

    private static final Ref REF = new Ref("ref_abcdefghijkmnpqr");
    private final InMemoryOtel otel = new InMemoryOtel();
    private final AtomicLong nanos = new AtomicLong();
    /** A server whose registry holds every tool and prompt these tests name. */
    private final McpTelemetry telemetry = McpTelemetry.custom().openTelemetry(otel.sdk).nanoClock(nanos::get)
            .knownTargets((method, name) -> true).build();

    private static JsonRpcMessage.Request call(String tool, ObjectNode arguments) {
        ObjectNode params = Json.object().put("name", tool);
        params.set("arguments", arguments);
        return new JsonRpcMessage.Request(RequestId.of(7), "tools/call", params);
    }

    @Test
    void aToolCallIsASpanNamedByTheConventions() {
        McpOperation op = telemetry.startServer(call("refund", Json.object()),
                Channel.stdio().withSession("s-1").withMcpProtocolVersion("2025-11-25"));
        nanos.addAndGet(250_000_000L);
        op.end(Outcome.sent(new JsonRpcMessage.Success(RequestId.of(7), Json.object())));

        SpanData span = otel.only();
        assertThat(span.getName()).isEqualTo("tools/call refund");
        assertThat(span.getKind()).isEqualTo(SpanKind.SERVER);
        assertThat(span.getAttributes().get(McpNames.MCP_METHOD_NAME)).isEqualTo("tools/call");
        assertThat(span.getAttributes().get(McpNames.GEN_AI_TOOL_NAME)).isEqualTo("refund");
        assertThat(span.getAttributes().get(McpNames.GEN_AI_OPERATION_NAME)).isEqualTo("execute_tool");
        assertThat(span.getAttributes().get(McpNames.JSONRPC_REQUEST_ID)).isEqualTo("7");
        assertThat(span.getAttributes().get(McpNames.NETWORK_TRANSPORT)).isEqualTo("pipe");
        assertThat(span.getAttributes().get(McpNames.MCP_SESSION_ID)).as("a digest, never the id")
                .isEqualTo(Channel.http().withSession("s-1").sessionDigest().orElseThrow()).hasSize(16)
                .doesNotContain("s-1");
        assertThat(span.getAttributes().get(McpNames.MCP_PROTOCOL_VERSION)).isEqualTo("2025-11-25");
        assertThat(span.getAttributes().get(McpNames.ERROR_TYPE)).isNull();
        assertThat(span.getStatus().getStatusCode()).isEqualTo(StatusCode.UNSET);

        HistogramPointData point = otel.metric("mcp.server.operation.duration").orElseThrow()
                .getHistogramData().getPoints().iterator().next();
        assertThat(point.getSum()).isEqualTo(0.25);
        assertThat(point.getBoundaries()).isEqualTo(McpNames.DURATION_BUCKETS);
        assertThat(point.getAttributes().get(McpNames.GEN_AI_TOOL_NAME)).isEqualTo("refund");
        assertThat(point.getAttributes().get(McpNames.MCP_SESSION_ID)).as("not on metrics: high cardinality").isNull();
        assertThat(otel.metric("mcp.server.operation.duration").orElseThrow().getUnit()).isEqualTo("s");
    }

    @Test
    void otherMethodsAreNamedByTheMethodAlone() {
        ObjectNode read = Json.object().put("uri", "file:///srv/report.pdf");
        telemetry.startServer(new JsonRpcMessage.Request(RequestId.of("a"), "resources/read", read), Channel.http())
                .end(Outcome.ok());
        telemetry.startServer(new JsonRpcMessage.Notification("notifications/initialized", Json.object()),
                Channel.http()).end(Outcome.ok());

        SpanData resource = otel.finished().get(0);
        assertThat(resource.getName()).isEqualTo("resources/read");
        assertThat(resource.getAttributes().get(McpNames.MCP_RESOURCE_URI)).isEqualTo("file:///srv/report.pdf");
        assertThat(resource.getAttributes().get(McpNames.NETWORK_PROTOCOL_NAME)).isEqualTo("http");
        assertThat(resource.getAttributes().get(McpNames.NETWORK_TRANSPORT)).isEqualTo("tcp");
        SpanData notification = otel.finished().get(1);
        assertThat(notification.getName()).isEqualTo("notifications/initialized");
        assertThat(notification.getAttributes().get(McpNames.JSONRPC_REQUEST_ID)).isNull();
        assertThat(otel.metric("mcp.server.operation.duration").orElseThrow().getHistogramData().getPoints()
                .stream().flatMap(p -> p.getAttributes().asMap().keySet().stream()))
                .doesNotContain(McpNames.MCP_RESOURCE_URI);
    }

    @Test
    void theClientsContextTravelsInMetaAndParentsTheServerSpan() {
        ObjectNode params = Json.object().put("name", "refund");
        params.putObject("_meta").put("progressToken", 5);
        JsonRpcMessage.Request request = new JsonRpcMessage.Request(RequestId.of(1), "tools/call", params);
        McpOperation client = telemetry.startClient(request, Channel.http().withServer("orders.internal", 8443));

        JsonNode sent = client.propagate(Optional.of(params)).orElseThrow();

        assertThat(params.get("_meta").has("traceparent")).as("the caller's object is not changed").isFalse();
        assertThat(sent.get("_meta").get("progressToken").asInt()).isEqualTo(5);
        assertThat(sent.get("_meta").get("traceparent").stringValue())
                .contains(client.span().getSpanContext().getTraceId())
                .contains(client.span().getSpanContext().getSpanId());

        McpOperation server = telemetry.startServer(new JsonRpcMessage.Request(RequestId.of(1), "tools/call", sent),
                Channel.http());
        server.end(Outcome.ok());
        client.end(Outcome.ok());

        SpanData serverSpan = otel.finished().get(0);
        SpanData clientSpan = otel.finished().get(1);
        assertThat(clientSpan.getKind()).isEqualTo(SpanKind.CLIENT);
        assertThat(clientSpan.getAttributes().get(McpNames.SERVER_ADDRESS)).isEqualTo("orders.internal");
        assertThat(clientSpan.getAttributes().get(McpNames.SERVER_PORT)).isEqualTo(8443L);
        assertThat(serverSpan.getTraceId()).isEqualTo(clientSpan.getTraceId());
        assertThat(serverSpan.getParentSpanId()).isEqualTo(clientSpan.getSpanId());
        assertThat(serverSpan.getParentSpanContext().isRemote()).isTrue();
        assertThat(otel.metric("mcp.client.operation.duration")).isPresent();
    }

    @Test
    void noParamsGetMetaOfTheirOwn() {
        McpOperation client = telemetry.startClient(new JsonRpcMessage.Request(RequestId.of(2), "tools/list",
                Optional.empty(), java.util.Map.of()), Channel.stdio());
        JsonNode sent = client.propagate(Optional.empty()).orElseThrow();
        client.end(Outcome.ok());

        assertThat(telemetry.extract(sent, Context.root())).isNotEqualTo(Context.root());
        assertThat(sent.get("_meta").get("traceparent").stringValue()).startsWith("00-");
    }

    @Test
    void theTransportsContextParentsWhenMetaHasNoneAndIsLinkedWhenItHas() {
        McpOperation http = telemetry.startClient(new JsonRpcMessage.Notification("x", Json.object()), Channel.http());
        Context transport = http.context();
        McpOperation other = telemetry.startClient(call("t", Json.object()), Channel.http());
        JsonNode withMeta = other.propagate(Optional.of(Json.object().put("name", "t"))).orElseThrow();

        telemetry.startServer(call("t", Json.object()), Channel.http(), transport).end(Outcome.ok());
        telemetry.startServer(new JsonRpcMessage.Request(RequestId.of(3), "tools/call", withMeta), Channel.http(),
                transport).end(Outcome.ok());

        SpanData byTransport = otel.finished().get(0);
        SpanData byMeta = otel.finished().get(1);
        assertThat(byTransport.getParentSpanId()).isEqualTo(http.span().getSpanContext().getSpanId());
        assertThat(byMeta.getParentSpanId()).isEqualTo(other.span().getSpanContext().getSpanId());
        assertThat(byMeta.getLinks()).singleElement().satisfies(link ->
                assertThat(link.getSpanContext().getSpanId()).isEqualTo(http.span().getSpanContext().getSpanId()));
    }

    @Test
    void aJsonRpcErrorEndsWithItsCodesRefAndTheRenderedMessageOnly() {
        JsonRpcError rendered = ErrorRenderer.rpcError(JsonRpcError.INVALID_PARAMS,
                VisibleFailure.of(ErrorCode.VALIDATION_ERROR, "Invalid params: /email must be a valid email", REF));
        McpOperation op = telemetry.startServer(call("signup", Json.object()), Channel.stdio());
        op.end(Outcome.sent(new JsonRpcMessage.Failure(RequestId.of(7), rendered)));

        SpanData span = otel.only();
        assertThat(span.getAttributes().get(McpNames.ERROR_TYPE)).isEqualTo("-32602");
        assertThat(span.getAttributes().get(McpNames.RPC_RESPONSE_STATUS_CODE)).isEqualTo("-32602");
        assertThat(span.getAttributes().get(McpNames.WARDEN_ERROR_CODE)).isEqualTo("VALIDATION_ERROR");
        assertThat(span.getAttributes().get(McpNames.WARDEN_REF)).isEqualTo(REF.value());
        // The caller's mistake (-32602) is no error of a SERVER span (the conventions); its codes are recorded above.
        assertThat(span.getStatus().getStatusCode()).isEqualTo(StatusCode.UNSET);
        HistogramPointData point = otel.metric("mcp.server.operation.duration").orElseThrow()
                .getHistogramData().getPoints().iterator().next();
        assertThat(point.getAttributes().get(McpNames.ERROR_TYPE)).isEqualTo("-32602");
        assertThat(point.getAttributes().get(McpNames.WARDEN_ERROR_CODE)).isEqualTo("VALIDATION_ERROR");
        assertThat(point.getAttributes().get(McpNames.WARDEN_REF)).as("a ref per call: not on metrics").isNull();
    }

    @Test
    void aServerFailureEndsWithTheRenderedMessageAsItsStatus() {
        JsonRpcError rendered = ErrorRenderer.rpcError(JsonRpcError.INTERNAL_ERROR,
                VisibleFailure.of(ErrorCode.INTERNAL_ERROR, "Internal error", REF));
        telemetry.startServer(call("signup", Json.object()), Channel.stdio())
                .end(Outcome.sent(new JsonRpcMessage.Failure(RequestId.of(7), rendered)));

        SpanData span = otel.only();
        assertThat(span.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
        assertThat(span.getStatus().getDescription()).isEqualTo(rendered.message());
        assertThat(span.getAttributes().get(McpNames.ERROR_TYPE)).isEqualTo("-32603");
    }

    @Test
    void aToolErrorEndsAsToolErrorWithWardensCodeAndRef() {
        JsonNode result = Json.tree(ErrorRenderer.toolResult(VisibleFailure.of(
                ErrorCode.NOT_FOUND, "No such invoice", REF), false));
        McpOperation op = telemetry.startServer(call("refund", Json.object()), Channel.stdio());
        op.end(Outcome.sent(new JsonRpcMessage.Success(RequestId.of(7), result)));

        SpanData span = otel.only();
        assertThat(span.getAttributes().get(McpNames.ERROR_TYPE)).isEqualTo("tool_error");
        assertThat(span.getAttributes().get(McpNames.RPC_RESPONSE_STATUS_CODE)).isNull();
        assertThat(span.getAttributes().get(McpNames.WARDEN_ERROR_CODE)).isEqualTo("NOT_FOUND");
        assertThat(span.getAttributes().get(McpNames.WARDEN_REF)).isEqualTo(REF.value());
        assertThat(span.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
        assertThat(span.getStatus().getDescription()).isEqualTo("NOT_FOUND");
    }

    @Test
    void aForeignPeersErrorIsSanitizedAndItsUnknownCodesLeftOut() {
        String canary = "could not open /home/deploy/orders/config.yml: password=hunter2-canary";
        ObjectNode data = Json.object().put("code", "password=hunter2-canary").put("ref", "/etc/shadow");
        JsonRpcMessage.Failure failure = new JsonRpcMessage.Failure(RequestId.of(9),
                JsonRpcError.of(JsonRpcError.INTERNAL_ERROR, canary, data));
        McpOperation op = telemetry.startClient(call("x", Json.object()), Channel.stdio());
        op.end(Outcome.received(failure, Sanitizer.ofDefaults()));

        SpanData span = otel.only();
        assertThat(span.getStatus().getDescription()).doesNotContain("hunter2").doesNotContain("/home/deploy");
        assertThat(span.getAttributes().asMap().values()).allSatisfy(v ->
                assertThat(String.valueOf(v)).doesNotContain("hunter2").doesNotContain("shadow"));
        assertThat(span.getAttributes().get(McpNames.ERROR_TYPE)).isEqualTo("-32603");
    }

    @Test
    void noAnswerEndsWithItsReason() {
        McpOperation op = telemetry.startClient(call("slow", Json.object()), Channel.stdio());
        op.end(new Outcome.Unanswered(Outcome.Reason.TIMEOUT));
        op.end(Outcome.ok()); // ignored: an operation ends once

        SpanData span = otel.only();
        assertThat(span.getAttributes().get(McpNames.ERROR_TYPE)).isEqualTo("timeout");
        assertThat(span.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
    }

    @Test
    void argumentsAndResultsAreCapturedOnlyWhenSwitchedOnAndThenSanitized() {
        ObjectNode args = Json.object().put("query", "select 1").put("api_key", "sk-live-canary123456789012345");
        telemetry.startServer(call("sql", args), Channel.stdio()).end(Outcome.ok());
        assertThat(otel.only().getAttributes().get(McpNames.GEN_AI_TOOL_CALL_ARGUMENTS)).isNull();
        otel.spans.reset();

        McpTelemetry capturing = McpTelemetry.custom().openTelemetry(otel.sdk).captureToolCalls(true).build();
        McpOperation op = capturing.startServer(call("sql", args), Channel.stdio());
        op.result(Json.object().put("rows", 1).put("password", "hunter2-canary"));
        op.end(Outcome.ok());

        SpanData span = otel.only();
        assertThat(span.getAttributes().get(McpNames.GEN_AI_TOOL_CALL_ARGUMENTS))
                .contains("select 1").doesNotContain("sk-live-canary");
        assertThat(span.getAttributes().get(McpNames.GEN_AI_TOOL_CALL_RESULT))
                .contains("rows").doesNotContain("hunter2-canary");
    }

    @Test
    void operatorsAttributesGoOnEverySpanAndMeasurement() {
        McpTelemetry upstream = telemetry.with(McpNames.WARDEN_UPSTREAM, "github");
        upstream.startClient(call("search", Json.object()), Channel.stdio()).end(Outcome.ok());

        assertThat(otel.only().getAttributes().get(McpNames.WARDEN_UPSTREAM)).isEqualTo("github");
        assertThat(otel.metric("mcp.client.operation.duration").orElseThrow().getHistogramData().getPoints()
                .iterator().next().getAttributes().get(McpNames.WARDEN_UPSTREAM)).isEqualTo("github");
    }

    @Test
    void theNoopTelemetryDoesNothingAtAll() {
        McpTelemetry noop = McpTelemetry.noop();
        Optional<JsonNode> params = Optional.of(Json.object().put("name", "t"));
        McpOperation op = noop.startServer(call("t", Json.object()), Channel.stdio());

        assertThat(noop.startClient(call("u", Json.object()), Channel.stdio())).isSameAs(op);
        assertThat(op.propagate(params)).isSameAs(params);
        assertThat(op.context()).isSameAs(Context.root());
        op.end(Outcome.ok());
        assertThat(otel.finished()).isEmpty();
        assertThat(noop.extract(params.get(), Context.root())).isSameAs(Context.root());
    }

    @Test
    void theApisOwnNoopPropagatesNothing() {
        McpTelemetry api = McpTelemetry.of(OpenTelemetry.noop());
        McpOperation op = api.startClient(call("t", Json.object()), Channel.stdio());
        Optional<JsonNode> params = Optional.of(Json.object());
        assertThat(op.propagate(params)).isSameAs(params);
        op.end(Outcome.ok());
    }

    @Test
    void aTransportSaysWhatItTravelsOver() {
        var stdio = dev.warden.core.transport.StdioTransport.of(new java.io.ByteArrayInputStream(new byte[0]),
                new java.io.ByteArrayOutputStream(), 1 << 20);
        assertThat(Channel.of(stdio).networkTransport()).contains("pipe");
        assertThat(Channel.of(dev.warden.core.transport.InMemoryTransport.pair().left())).isEqualTo(Channel.inProcess());
    }

    @Test
    void badValuesFailNamingThem() {
        assertThatThrownBy(() -> McpTelemetry.custom().build()).hasMessageContaining("openTelemetry");
        assertThatThrownBy(() -> Channel.stdio().withServer("", 80)).hasMessageContaining("serverAddress");
        assertThatThrownBy(() -> Channel.http().withServer("h", 70_000)).hasMessageContaining("70000");
        assertThatThrownBy(() -> new Channel(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.of("raw-session-id"), Optional.empty())).hasMessageContaining("withSession");
        assertThatThrownBy(() -> new Outcome.RpcError(-32603, Optional.empty(), Optional.empty(), null))
                .hasMessageContaining("sanitizedMessage");
    }
}
