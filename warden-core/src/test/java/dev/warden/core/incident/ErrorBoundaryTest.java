package dev.warden.core.incident;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.error.CapturedFailure;
import dev.warden.core.error.ErrorCode;
import dev.warden.core.error.FailureContext;
import dev.warden.core.error.InternalFailure;
import dev.warden.core.error.ProtocolException;
import dev.warden.core.error.Ref;
import dev.warden.core.error.ToolFailure;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

class ErrorBoundaryTest {

    private final List<Incident> incidents = new ArrayList<>();
    private final List<Incident> reported = new ArrayList<>();
    private final ErrorBoundary boundary = ErrorBoundary.builder()
            .incidents(incidents::add)
            .reporter((incident, cause) -> reported.add(incident))
            .build();

    private static final FailureContext WHERE = FailureContext.tool("tools/call", "t");

    private static final ProtocolException UNKNOWN_TOOL = new ProtocolException(-32602, "Unknown tool",
            ErrorCode.NOT_FOUND);

    @Test
    void aRefusalIsRecordedUnderTheRefThePeerSees() {
        Ref ref = boundary.refusal(UNKNOWN_TOOL, WHERE);
        assertThat(incidents).singleElement().satisfies(incident -> {
            assertThat(incident.ref()).isEqualTo(ref);
            assertThat(incident.code()).isEqualTo(ErrorCode.NOT_FOUND);
            assertThat(incident.chain().get(0).message()).contains("Unknown tool");
        });
        assertThat(reported).isEmpty();
    }

    @Test
    void theSameRefusalWithinASecondSharesOneIncidentAndALaterOneGetsItsOwn() {
        dev.warden.testkit.MutableClock now = new dev.warden.testkit.MutableClock(java.time.Instant.parse("2026-11-23T00:00:00Z"));
        ErrorBoundary timed = ErrorBoundary.builder().incidents(incidents::add).clock(now).build();
        Ref first = timed.refusal(UNKNOWN_TOOL, WHERE);
        now.advance(java.time.Duration.ofMillis(900));
        Ref second = timed.refusal(UNKNOWN_TOOL, WHERE);
        Ref other = timed.refusal(ProtocolException.invalidParams("Invalid params: /a is required"), WHERE);
        now.advance(java.time.Duration.ofMillis(200));
        Ref later = timed.refusal(UNKNOWN_TOOL, WHERE);
        assertThat(second).isEqualTo(first);
        assertThat(other).isNotEqualTo(first);
        assertThat(later).isNotEqualTo(first);
        assertThat(incidents).extracting(Incident::ref).containsExactly(first, other, later);
    }

    @Test
    void aRefAlreadyInTheRefusalsDataIsKeptAndNotRecordedTwice() {
        Ref recorded = Ref.random();
        tools.jackson.databind.node.ObjectNode data = dev.warden.core.json.Json.object().put("ref", recorded.value());
        Ref ref = boundary.refusal(new ProtocolException(-32602, "Invalid params", ErrorCode.VALIDATION_ERROR,
                Optional.of(data)), WHERE);
        assertThat(ref).isEqualTo(recorded);
        assertThat(incidents).isEmpty();
    }

    @Test
    void anUnknownThrowableBecomesInternalErrorWithTheGenericMessage() {
        CapturedFailure captured = boundary.capture(new IllegalStateException("/etc/passwd"), WHERE);
        assertThat(captured.failure()).isInstanceOf(InternalFailure.class);
        assertThat(captured.failure().safeMessage()).isEqualTo("An internal error occurred.");
    }

    @Test
    void theIncidentKeepsTheWholeChainUnderTheSameRef() {
        Exception cause = new SQLException("relation \"users\" does not exist", "42P01");
        CapturedFailure captured = boundary.capture(new RuntimeException("wrapper", cause), WHERE);
        assertThat(incidents).singleElement().satisfies(incident -> {
            assertThat(incident.ref()).isEqualTo(captured.ref());
            assertThat(incident.tool()).contains("t");
            assertThat(incident.chain()).extracting(Incident.ThrowableRecord::type)
                    .containsExactly("java.lang.RuntimeException", "java.sql.SQLException");
            assertThat(incident.chain().get(1).message()).contains("relation \"users\" does not exist");
            assertThat(incident.chain().get(0).stack()).isNotEmpty();
        });
    }

    @Test
    void aToolFailureAnywhereInTheChainIsTheAuthorsAnswer() {
        ToolFailure notFound = ToolFailure.notFound("No such order.");
        CapturedFailure captured = boundary.capture(new CompletionException(new RuntimeException(notFound)), WHERE);
        assertThat(captured.failure()).isSameAs(notFound);
    }

    @Test
    void classifiersRunBeforeTheInternalFallback() {
        ErrorBoundary withClassifier = ErrorBoundary.builder().incidents(incidents::add)
                .classifier(t -> t instanceof java.util.concurrent.TimeoutException
                        ? Optional.of(ToolFailure.timeout("The lookup timed out.")) : Optional.empty())
                .build();
        assertThat(withClassifier.capture(new java.util.concurrent.TimeoutException("x"), WHERE).failure().code())
                .isEqualTo(ErrorCode.TIMEOUT);
    }

    @Test
    void aBrokenClassifierDoesNotChangeTheOutcome() {
        ErrorBoundary broken = ErrorBoundary.builder().incidents(incidents::add)
                .classifier(t -> {
                    throw new IllegalStateException("bug in classifier");
                }).build();
        assertThat(broken.capture(new RuntimeException("x"), WHERE).failure().code())
                .isEqualTo(ErrorCode.INTERNAL_ERROR);
    }

    @Test
    void reportersHearOfSystemFailuresOnly() {
        boundary.capture(new RuntimeException("bug"), WHERE);
        boundary.capture(ToolFailure.upstream("The billing API failed.", new RuntimeException("503")), WHERE);
        boundary.capture(ToolFailure.invalid("/email", "must be an email address"), WHERE);
        boundary.capture(ToolFailure.notFound("No such order."), WHERE);
        boundary.capture(ToolFailure.rateLimited("Slow down.", java.time.Duration.ofSeconds(2)), WHERE);
        assertThat(reported).extracting(Incident::code)
                .containsExactly(ErrorCode.INTERNAL_ERROR, ErrorCode.UPSTREAM_ERROR);
        assertThat(incidents).hasSize(5);
    }

    @Test
    void aFailingSinkOrReporterDoesNotChangeWhatThePeerGets() {
        ErrorBoundary fragile = ErrorBoundary.builder()
                .incidents(incident -> {
                    throw new IllegalStateException("disk full");
                })
                .reporter((incident, cause) -> {
                    throw new IllegalStateException("network down");
                })
                .build();
        assertThat(fragile.capture(new RuntimeException("x"), WHERE).failure().code())
                .isEqualTo(ErrorCode.INTERNAL_ERROR);
    }

    @Test
    void everyCaptureGetsAFreshRef() {
        Ref a = boundary.capture(new RuntimeException(), WHERE).ref();
        Ref b = boundary.capture(new RuntimeException(), WHERE).ref();
        assertThat(a).isNotEqualTo(b);
    }
}
