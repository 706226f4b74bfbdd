package dev.warden.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import dev.warden.core.jsonrpc.JsonRpcMessage;
import dev.warden.core.jsonrpc.RequestId;
import dev.warden.core.sanitize.Policy;
import dev.warden.core.sanitize.Sanitizer;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * {@link Outcome.RpcError}'s message is the span's status: it takes a {@link SanitizedMessage},
 * which only the sanitizer (or Warden's renderer) makes, never a raw string.
 */
class SanitizedMessageTest {

    private static final String RAW = "connect failed at /srv/canary4k2/db.js password=hunter2-canary";

    @Test
    void aRawStringIsNoMessageARpcErrorTakes() {
        RecordComponent message = Outcome.RpcError.class.getRecordComponents()[3];
        assertThat(message.getType()).isEqualTo(SanitizedMessage.class);
        assertThat(SanitizedMessage.class.getConstructors()).as("no public way round the sanitizer").isEmpty();
        assertThat(Arrays.stream(Outcome.RpcError.class.getConstructors())
                .flatMap(c -> Arrays.stream(c.getParameterTypes()))).doesNotContain(String.class);
    }

    @Test
    void theUnsanitizedTextIsRefusedAndTheSpanShowsWhatTheSanitizerLeft() {
        SanitizedMessage message = SanitizedMessage.of(RAW, Sanitizer.ofDefaults(), Policy.REDACT);
        assertThat(message.text()).doesNotContain("hunter2").doesNotContain("canary4k2");

        InMemoryOtel otel = new InMemoryOtel();
        McpTelemetry.of(otel.sdk).startClient(new JsonRpcMessage.Request(RequestId.of(1), "tools/list", Json.object()),
                Channel.stdio()).end(new Outcome.RpcError(-32603, Optional.empty(), Optional.empty(), message));
        SpanData span = otel.only();
        assertThat(span.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
        assertThat(span.getStatus().getDescription()).isEqualTo(message.text());
        assertThat(span.toString()).doesNotContain("hunter2").doesNotContain("canary4k2");
    }

    @Test
    void noneSaysNothing() {
        assertThat(SanitizedMessage.none().text()).isEmpty();
    }
}
