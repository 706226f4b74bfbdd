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
        JsonRpcError error = ErrorRenderer.rpcError(JsonRpcError.INTERNAL_ERROR,
                VisibleFailure.of(new CapturedFailure(new InternalFailure(new RuntimeException("secret")), REF)));
        assertThat(error.code()).isEqualTo(-32603);
        assertThat(error.data().orElseThrow().get("code").stringValue()).isEqualTo("INTERNAL_ERROR");
        assertThat(error.data().orElseThrow().get("ref").stringValue()).isEqualTo(REF.value());
        assertThat(error.data().orElseThrow().toString()).doesNotContain("secret");
    }

    @Test
    void theLegacyBandIsNeverRendered() {
        JsonRpcError error = ErrorRenderer.rpcError(-32000,
                VisibleFailure.of(new CapturedFailure(new InternalFailure(new RuntimeException()), REF)));
        assertThat(error.code()).isEqualTo(-32603);
        assertThatThrownBy(() -> new ProtocolException(-32001, "x", ErrorCode.TIMEOUT))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-32001");
    }

    @Test
    void aFailureWithoutViolationsHasNoViolationsKeyInEitherShape() {
        VisibleFailure failure = VisibleFailure.of(ErrorCode.VALIDATION_ERROR, "The date is not valid.", REF);
        assertThat(textOf(ErrorRenderer.toolResult(failure, true)).get("error").has("violations")).isFalse();
        assertThat(ErrorRenderer.rpcError(-32602, failure).data().orElseThrow().has("violations")).isFalse();
    }

    @Test
    void violationsReachTheDataOfAJsonRpcError() {
        JsonRpcError error = ErrorRenderer.rpcError(-32602, VisibleFailure.of(ErrorCode.VALIDATION_ERROR,
                "must be a valid email", REF).withViolations(List.of(new Violation("/data/attributes/email",
                "must be a valid email"))));
        assertThat(error.data().orElseThrow().get("violations").toString())
                .isEqualTo("[{\"pointer\":\"/data/attributes/email\",\"message\":\"must be a valid email\"}]");
    }

    @Test
    void aRateLimitWithoutAKnownWaitHasNoRetryAfterMs() {
        VisibleFailure failure = VisibleFailure.of(ErrorCode.RATE_LIMITED, "Too many requests; retry later.", REF);
        JsonNode error = textOf(ErrorRenderer.toolResult(failure, true)).get("error");
        assertThat(error.get("retryable").booleanValue()).isTrue();
        assertThat(error.has("retryAfterMs")).isFalse();
        assertThat(ErrorRenderer.rpcError(-32603, failure).data().orElseThrow().has("retryAfterMs")).isFalse();
    }

    @Test
    void aWaitShorterThanAMillisecondIsRoundedUpNotDownToNow() {
        VisibleFailure failure = VisibleFailure.of(ErrorCode.RATE_LIMITED, "Slow down.", REF)
                .withRetryAfter(Duration.ofNanos(300_000));
        assertThat(textOf(ErrorRenderer.toolResult(failure, true)).at("/error/retryAfterMs").asLong()).isEqualTo(1);
    }

    @Test
    void aJsonRpcErrorCarriesWardensCodeRetryabilityAndRefInData() {
        JsonRpcError error = ErrorRenderer.rpcError(-32603, VisibleFailure.of(ErrorCode.TIMEOUT,
                "The upstream server did not answer in time.", REF));
        assertThat(error.data().orElseThrow().toString()).isEqualTo(
                "{\"code\":\"TIMEOUT\",\"retryable\":true,\"ref\":\"ref_abcdefghijkmnpqr\"}");
    }

    @Test
    void aProtocolErrorMadeFromACapturedFailureIsRenderedFromItWithItsOwnRef() {
        VisibleFailure captured = VisibleFailure.of(ErrorCode.RATE_LIMITED, "Slow down.", REF)
                .withRetryAfter(Duration.ofSeconds(2));
        JsonRpcError error = ErrorRenderer.rpcError(new ProtocolException(-32603, captured),
                new Ref("ref_zzzzzzzzzzzzzzzz"));
        assertThat(error.message()).isEqualTo("Slow down.");
        assertThat(error.data().orElseThrow().toString()).isEqualTo("{\"code\":\"RATE_LIMITED\",\"retryable\":true,"
                + "\"retryAfterMs\":2000,\"ref\":\"ref_abcdefghijkmnpqr\"}");
    }

    @Test
    void aProtocolErrorKeepsTheDataItsSpecificationDefinesBeforeWardensPart() {
        JsonRpcError error = ErrorRenderer.rpcError(ProtocolException.missingClientCapability("sampling"), REF);
        assertThat(error.code()).isEqualTo(JsonRpcError.MISSING_REQUIRED_CLIENT_CAPABILITY);
        assertThat(error.data().orElseThrow().toString()).isEqualTo("{\"requiredCapabilities\":{\"sampling\":{}},"
                + "\"code\":\"VALIDATION_ERROR\",\"retryable\":false,\"ref\":\"ref_abcdefghijkmnpqr\"}");
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

    @Test
    void aRefWhoseIncidentCouldNotBeKeptIsLeftOutOfBothShapesAndTheCodeStays() {
        Ref lost = Ref.random();
        UnrecordedRefs.mark(lost);
        VisibleFailure failure = VisibleFailure.of(ErrorCode.UPSTREAM_ERROR, "The upstream failed.", lost);
        JsonNode error = ErrorRenderer.errorObject(failure).get("error");
        assertThat(error.get("code").asString()).isEqualTo("UPSTREAM_ERROR");
        assertThat(error.has("ref")).isFalse();
        JsonNode data = ErrorRenderer.rpcError(JsonRpcError.INTERNAL_ERROR, failure).data().orElseThrow();
        assertThat(data.get("code").asString()).isEqualTo("UPSTREAM_ERROR");
        assertThat(data.has("ref")).isFalse();
    }
}
