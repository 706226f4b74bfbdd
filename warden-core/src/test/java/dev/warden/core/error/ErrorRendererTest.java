package dev.warden.core.error;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.warden.core.json.Json;
import dev.warden.core.jsonrpc.JsonRpcError;
import dev.warden.core.mcp.Content;
import dev.warden.core.mcp.Tools;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class ErrorRendererTest {

    private static final Ref REF = new Ref("ref_abcdefghijkmnpqr");

    private static JsonNode textOf(Tools.CallResult result) {
        return Json.mapper().readTree(((Content.Text) result.content().get(0)).text());
    }

    @Test
    void aToolFailureIsAnIsErrorResultWithCompactJsonText() {
        Tools.CallResult result = ErrorRenderer.toolResult(new CapturedFailure(
                ToolFailure.rateLimited("Slow down.", Duration.ofMillis(2000)), REF), true);
        assertThat(result.isError()).isTrue();
        assertThat(((Content.Text) result.content().get(0)).text()).isEqualTo(
                "{\"error\":{\"code\":\"RATE_LIMITED\",\"message\":\"Slow down.\",\"retryable\":true,"
                        + "\"retryAfterMs\":2000,\"ref\":\"ref_abcdefghijkmnpqr\"}}");
        assertThat(result.structuredContent().orElseThrow().toString()).isEqualTo(textOf(result).toString());
    }

    @Test
    void withoutStructuredContentTheErrorTravelsInTextAlone() {
        Tools.CallResult result = ErrorRenderer.toolResult(new CapturedFailure(
                ToolFailure.notFound("No such order."), REF), false);
        assertThat(result.structuredContent()).isEmpty();
        assertThat(textOf(result).get("error").get("code").stringValue()).isEqualTo("NOT_FOUND");
    }

    @Test
    void validationFailuresListTheirViolations() {
        Tools.CallResult result = ErrorRenderer.toolResult(new CapturedFailure(ToolFailure.validation(List.of(
                new Violation("/email", "must be an email address"),
                new Violation("/age", "must be an integer"))), REF), true);
        JsonNode error = textOf(result).get("error");
        assertThat(error.get("message").stringValue())
                .isEqualTo("/email: must be an email address\n/age: must be an integer");
        assertThat(error.get("violations").size()).isEqualTo(2);
    }

    @Test
    void aRpcErrorCarriesTheSymbolicCodeAndRefInData() {
        JsonRpcError error = ErrorRenderer.rpcError(JsonRpcError.INTERNAL_ERROR, "An internal error occurred.",
                new CapturedFailure(new InternalFailure(new RuntimeException("secret")), REF));
        assertThat(error.code()).isEqualTo(-32603);
        assertThat(error.data().orElseThrow().get("code").stringValue()).isEqualTo("INTERNAL_ERROR");
        assertThat(error.data().orElseThrow().get("ref").stringValue()).isEqualTo(REF.value());
        assertThat(error.data().orElseThrow().toString()).doesNotContain("secret");
    }

    @Test
    void theLegacyBandIsNeverRendered() {
        JsonRpcError error = ErrorRenderer.rpcError(-32000, "x",
                new CapturedFailure(new InternalFailure(new RuntimeException()), REF));
        assertThat(error.code()).isEqualTo(-32603);
        assertThatThrownBy(() -> new ProtocolException(-32001, "x", ErrorCode.TIMEOUT))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-32001");
    }

    @Test
    void everyCodeMapsToAStandardJsonRpcCode() {
        for (ErrorCode code : ErrorCode.values()) {
            assertThat(ErrorRenderer.jsonRpcCodeFor(code)).isIn(-32602, -32603);
        }
    }

    @Test
    void onlyInternalAndUpstreamAreSystemFailures() {
        assertThat(java.util.Arrays.stream(ErrorCode.values()).filter(ErrorCode::systemFailure))
                .containsExactly(ErrorCode.UPSTREAM_ERROR, ErrorCode.INTERNAL_ERROR);
    }

    @Test
    void refsAreWellFormedAndRandom() {
        Ref ref = Ref.random();
        assertThat(Ref.isWellFormed(ref.value())).isTrue();
        assertThat(Ref.random()).isNotEqualTo(ref);
        assertThatThrownBy(() -> new Ref("ref_../../etc/passwd")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void failuresAreStacklessButKeepTheirCause() {
        RuntimeException cause = new RuntimeException("503 from billing");
        UpstreamFailure failure = ToolFailure.upstream("The billing API failed.", cause);
        assertThat(failure.getStackTrace()).isEmpty();
        assertThat(failure.getCause()).isSameAs(cause);
    }
}
