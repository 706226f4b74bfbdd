package dev.warden.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.error.ConnectionClosedException;
import dev.warden.core.error.PeerErrorException;
import dev.warden.core.error.RequestCancelledException;
import dev.warden.core.json.Json;
import dev.warden.core.jsonrpc.JsonRpcError;
import dev.warden.core.jsonrpc.JsonRpcMessage;
import dev.warden.core.jsonrpc.RequestId;
import dev.warden.core.sanitize.Sanitizer;
import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Context;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** ofGlobal waits for the application's SDK; HTTP headers as the transport's context; failures as outcomes. */
class GlobalAndFailuresTest {

    private final InMemoryOtel otel = new InMemoryOtel();
    private final Sanitizer sanitizer = Sanitizer.ofDefaults();

    @AfterEach
    void reset() {
        GlobalOpenTelemetry.resetForTest();
    }

    private static JsonRpcMessage.Request ping() {
        return new JsonRpcMessage.Request(RequestId.of(1), "ping", Json.object());
    }

    @Test
    void ofGlobalRecordsNothingAndFixesNothingUntilTheSdkIsInstalled() {
        GlobalOpenTelemetry.resetForTest();
        McpTelemetry global = McpTelemetry.ofGlobal();
        global.startServer(ping(), Channel.stdio()).end(Outcome.ok());
        assertThat(GlobalOpenTelemetry.isSet()).as("the application may still install its SDK").isFalse();

        GlobalOpenTelemetry.set(otel.sdk);
        global.startServer(ping(), Channel.stdio()).end(Outcome.ok());
        assertThat(otel.only().getName()).isEqualTo("ping");
    }

    @Test
    void httpHeadersGiveTheTransportsContext() {
        McpTelemetry telemetry = McpTelemetry.of(otel.sdk);
        String traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
        Map<String, String> headers = Map.of("traceparent", traceparent);
        Context transport = telemetry.extractHeaders(name -> Optional.ofNullable(headers.get(name)), Context.root());

        telemetry.startServer(ping(), Channel.http(), transport).end(Outcome.ok());
        assertThat(otel.only().getTraceId()).isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
        assertThat(otel.only().getParentSpanId()).isEqualTo("00f067aa0ba902b7");
        assertThat(Span.fromContext(telemetry.extractHeaders(name -> Optional.empty(), Context.root()))
                .getSpanContext().isValid()).isFalse();
    }

    @Test
    void aFailedRequestIsThePeersErrorOrWhyNoAnswerCame() {
        assertThat(Outcome.failed(new PeerErrorException(JsonRpcError.of(-32602, "password=hunter2-canary")), sanitizer))
                .isInstanceOfSatisfying(Outcome.RpcError.class, e -> {
                    assertThat(e.code()).isEqualTo(-32602);
                    assertThat(e.sanitizedMessage()).doesNotContain("hunter2");
                });
        assertThat(Outcome.failed(new CompletionException(new RequestCancelledException("x")), sanitizer))
                .isEqualTo(new Outcome.Unanswered(Outcome.Reason.CANCELLED));
        assertThat(Outcome.failed(new ConnectionClosedException("gone"), sanitizer))
                .isEqualTo(new Outcome.Unanswered(Outcome.Reason.CONNECTION_CLOSED));
        assertThat(Outcome.failed(new IllegalStateException("canary"), sanitizer))
                .isEqualTo(new Outcome.Unanswered(Outcome.Reason.OTHER));
        assertThat(Outcome.Reason.OTHER.errorType()).isEqualTo("_OTHER");
    }
}
