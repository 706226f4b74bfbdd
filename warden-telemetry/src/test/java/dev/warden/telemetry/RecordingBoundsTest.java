package dev.warden.telemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.warden.core.error.PeerErrorException;
import dev.warden.core.json.Json;
import dev.warden.core.jsonrpc.JsonRpcError;
import dev.warden.core.jsonrpc.JsonRpcMessage;
import dev.warden.core.jsonrpc.RequestId;
import dev.warden.core.sanitize.Policy;
import dev.warden.core.sanitize.Sanitizer;
import dev.warden.core.session.SessionObserver;
import dev.warden.core.transport.IdentifiedSession;
import dev.warden.core.transport.Transport;
import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.lang.reflect.Modifier;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/**
 * What telemetry records is bounded by what the server knows, not by what a caller sends: method
 * and tool names, a peer's error text, the caller's own mistakes (from review r9 of issue 34).
 */
class RecordingBoundsTest {

    private final InMemoryOtel otel = new InMemoryOtel();
    /** A server that registered the tool {@code refund} and the prompt {@code greet}. */
    private final McpTelemetry telemetry = McpTelemetry.custom().openTelemetry(otel.sdk)
            .knownTargets((method, name) -> Set.of("refund", "greet").contains(name)).build();

    private static JsonRpcMessage.Failure failure(RequestId id, int code) {
        return new JsonRpcMessage.Failure(Optional.of(id), new JsonRpcError(code, "refused", Optional.empty()));
    }

    @Test
    void inventedMethodsAndToolNamesMakeNoNewSpanNamesOrMetricSeries() {
        for (int i = 0; i < 50; i++) {
            String junk = UUID.randomUUID().toString();
            telemetry.startServer(new JsonRpcMessage.Request(RequestId.of(i), "x/" + junk, Json.object()), Channel.stdio())
                    .end(Outcome.sent(failure(RequestId.of(i), -32601)));
            telemetry.startServer(new JsonRpcMessage.Request(RequestId.of(1000 + i), "tools/call",
                    Json.object().put("name", "t" + junk)), Channel.stdio())
                    .end(Outcome.sent(failure(RequestId.of(1000 + i), -32602)));
        }
        Set<String> names = otel.finished().stream().map(SpanData::getName).collect(Collectors.toSet());
        assertThat(names).containsExactlyInAnyOrder("_OTHER", "tools/call");
        assertThat(otel.metric(McpNames.SERVER_OPERATION_DURATION).orElseThrow().getHistogramData().getPoints())
                .hasSize(2);
        assertThat(otel.finished()).allSatisfy(span -> {
            assertThat(span.getAttributes().get(McpNames.GEN_AI_TOOL_NAME)).isNull();
            assertThat(span.getAttributes().get(McpNames.MCP_METHOD_NAME)).isIn("_OTHER", "tools/call");
        });
    }

    @Test
    void aRegisteredToolOrPromptNamesTheSpanAndItsSeries() {
        telemetry.startServer(new JsonRpcMessage.Request(RequestId.of(1), "tools/call", Json.object().put("name", "refund")),
                Channel.stdio()).end(Outcome.ok());
        telemetry.startServer(new JsonRpcMessage.Request(RequestId.of(2), "prompts/get", Json.object().put("name", "greet")),
                Channel.stdio()).end(Outcome.ok());
        assertThat(otel.finished()).extracting(SpanData::getName).containsExactly("tools/call refund", "prompts/get greet");
        assertThat(otel.finished().get(0).getAttributes().get(McpNames.GEN_AI_TOOL_NAME)).isEqualTo("refund");
        assertThat(otel.finished().get(1).getAttributes().get(McpNames.GEN_AI_PROMPT_NAME)).isEqualTo("greet");
    }

    @Test
    void aTelemetryToldNothingNamesNoTool() {
        McpTelemetry.of(otel.sdk).startServer(new JsonRpcMessage.Request(RequestId.of(1), "tools/call",
                Json.object().put("name", "refund")), Channel.stdio()).end(Outcome.ok());
        assertThat(otel.only().getName()).isEqualTo("tools/call");
        assertThat(otel.only().getAttributes().get(McpNames.GEN_AI_OPERATION_NAME)).isEqualTo("execute_tool");
    }

    @Test
    void aMegabyteMethodNameIsRecordedAsOther() {
        telemetry.startServer(new JsonRpcMessage.Notification("m".repeat(1_000_000), Json.object()), Channel.stdio())
                .end(Outcome.ok());
        assertThat(otel.only().getName()).isEqualTo("_OTHER");
    }

    @Test
    void aPeersErrorMessagePassesTheConfiguredSanitizerAndPolicy() {
        Sanitizer withPii = Sanitizer.builder().pii().build();
        String upstream = "No invoices for customer jane.doe@example.com";
        assertThat(withPii.sanitize(upstream, Policy.REDACT).output()).doesNotContain("jane.doe@example.com");
        McpTelemetry configured = McpTelemetry.custom().openTelemetry(otel.sdk).sanitizer(withPii).policy(Policy.REDACT)
                .build();
        SessionObserver observer = SessionTelemetry.observer(configured, m -> Channel.stdio());
        SessionObserver.Outgoing out = observer.sending(new JsonRpcMessage.Request(RequestId.of(1), "tools/call",
                Json.object().put("name", "invoices")));
        out.ended().failed(new PeerErrorException(new JsonRpcError(-32603, upstream, Optional.empty())));
        assertThat(otel.only().getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
        assertThat(otel.only().getStatus().getDescription()).doesNotContain("jane.doe@example.com");
    }

    @Test
    void aServerSpanForTheCallersMistakeIsNoErrorYetSaysItsCode() {
        int[] callersMistakes = {-32700, -32600, -32601, -32602, -32002};
        for (int code : callersMistakes) {
            telemetry.startServer(new JsonRpcMessage.Request(RequestId.of(1), "tools/call",
                    Json.object().put("name", "refund")), Channel.stdio()).end(Outcome.sent(failure(RequestId.of(1), code)));
        }
        assertThat(otel.finished()).hasSize(callersMistakes.length).allSatisfy(span -> {
            assertThat(span.getStatus().getStatusCode()).isEqualTo(StatusCode.UNSET);
            assertThat(span.getAttributes().get(McpNames.ERROR_TYPE)).startsWith("-32");
            assertThat(span.getAttributes().get(McpNames.RPC_RESPONSE_STATUS_CODE)).startsWith("-32");
        });
    }

    @Test
    void aServerSpanForItsOwnFailureIsAnError() {
        for (int code : new int[]{-32603, -32000, -32099}) {
            telemetry.startServer(new JsonRpcMessage.Request(RequestId.of(1), "ping", Json.object()), Channel.stdio())
                    .end(Outcome.sent(failure(RequestId.of(1), code)));
        }
        assertThat(otel.finished()).allSatisfy(span -> assertThat(span.getStatus().getStatusCode())
                .isEqualTo(StatusCode.ERROR));
    }

    @Test
    void aClientSpanForAnyErrorAnswerIsAnError() {
        telemetry.startClient(new JsonRpcMessage.Request(RequestId.of(1), "ping", Json.object()), Channel.stdio())
                .end(Outcome.sent(failure(RequestId.of(1), -32602)));
        assertThat(otel.only().getKind()).isEqualTo(SpanKind.CLIENT);
        assertThat(otel.only().getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
    }

    @Test
    void aStringRequestIdIsRecordedAsItsValue() {
        telemetry.startServer(new JsonRpcMessage.Request(RequestId.of("request-7"), "ping", Json.object()),
                Channel.stdio()).end(Outcome.ok());
        assertThat(otel.only().getAttributes().get(McpNames.JSONRPC_REQUEST_ID)).isEqualTo("request-7");
    }

    @Test
    void aToolCallWithoutArgumentsStillRecordsItsResultWhenCaptureIsOn() {
        McpTelemetry capturing = McpTelemetry.custom().openTelemetry(otel.sdk).captureToolCalls(true).build();
        McpOperation op = capturing.startServer(new JsonRpcMessage.Request(RequestId.of(1), "tools/call",
                Json.object().put("name", "now")), Channel.stdio());
        op.result(Json.object().put("time", "noon"));
        op.end(Outcome.ok());
        assertThat(otel.only().getAttributes().get(McpNames.GEN_AI_TOOL_CALL_RESULT)).contains("noon");
    }

    @Test
    void withoutAnSdkTheGlobalTelemetryCopiesNothing() {
        GlobalOpenTelemetry.resetForTest();
        McpTelemetry global = McpTelemetry.ofGlobal();
        SessionObserver observer = SessionTelemetry.observer(global, m -> {
            throw new AssertionError("no channel is asked for while nothing is recorded");
        });
        JsonRpcMessage.Request request = new JsonRpcMessage.Request(RequestId.of(1), "ping", Json.object());
        assertThat(observer.sending(request).request()).isSameAs(request);
        assertThat(observer.received(request)).isSameAs(SessionObserver.Incoming.NONE);
        assertThat(global.recording()).isFalse();
        assertThat(GlobalOpenTelemetry.isSet()).isFalse();
    }

    @Test
    void aChannelOfASessionWithoutAnIdHasNoSession() {
        for (String id : new String[]{null, "", "  "}) {
            Transport transport = new NamedTransport(id);
            assertThatCode(() -> Channel.of(transport)).doesNotThrowAnyException();
            assertThat(Channel.of(transport).sessionDigest()).isEmpty();
        }
    }

    @Test
    void theRawSpanIsNoPublicApi() throws Exception {
        assertThat(Modifier.isPublic(McpOperation.class.getDeclaredMethod("span").getModifiers())).isFalse();
    }

    @Test
    void anOperatorsNumericAttributeGoesOnTheSpan() {
        io.opentelemetry.api.common.AttributeKey<Long> status = io.opentelemetry.api.common.AttributeKey.longKey("http.response.status_code");
        telemetry.startServer(new JsonRpcMessage.Notification("ping", Json.object()), Channel.http())
                .attribute(status, 415L).end(Outcome.ok());
        assertThat(otel.only().getAttributes().get(status)).isEqualTo(415L);
    }

    @Test
    void hostileMetaOnAReceivedMessageIsHarmless() throws Exception {
        SessionObserver observer = SessionTelemetry.observer(telemetry, m -> Channel.stdio());
        String[] parents = {"", "zz", "00-" + "0".repeat(32) + "-" + "0".repeat(16) + "-01",
                "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "x".repeat(2_000_000)};
        int i = 0;
        for (String tp : parents) {
            ObjectNode params = Json.object().put("name", "t");
            params.putObject("_meta").put("traceparent", tp).put("tracestate", ",".repeat(100_000) + "a=b")
                    .put("baggage", "k=" + "%".repeat(100_000));
            SessionObserver.Incoming in = observer.received(new JsonRpcMessage.Request(RequestId.of(i++), "tools/call", params));
            in.during(() -> null);
            in.ended(Optional.empty());
        }
        assertThat(otel.finished()).hasSize(parents.length)
                .allMatch(s -> !s.getParentSpanContext().isValid() || s.getKind() != SpanKind.SERVER);
    }

    /** A transport known by a session id it may not have yet. */
    private record NamedTransport(String sessionId) implements Transport, IdentifiedSession {
        @Override
        public void start(Listener listener) {
        }

        @Override
        public void send(String frame) {
        }

        @Override
        public void close() {
        }
    }
}
