package dev.warden.core.failure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.error.ErrorCode;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The order in which the one classifier reads evidence (docs/reference/failure-codes.md), and what
 * it never reads: the caller's words.
 */
class ClassifierTest {

    private static Classifier.Decision decide(Optional<ErrorCode> structure, Optional<ErrorCode> database, String text,
            Optional<Duration> retryAfter) {
        return Classifier.decide(new Classifier.Evidence(Optional.empty(), structure, database, text, Set.of(),
                Set.of(), ErrorCode.VALIDATION_ERROR, retryAfter));
    }

    @Test
    void aCodeInTheStructureWinsOverTheWords() {
        assertThat(decide(Optional.of(ErrorCode.NOT_FOUND), Optional.empty(), "request timed out", Optional.empty())
                .code()).isEqualTo(ErrorCode.NOT_FOUND);
    }

    @Test
    void aWaitTheServerStatedIsKeptOnlyForARetryableCode() {
        Duration wait = Duration.ofSeconds(2);
        assertThat(decide(Optional.of(ErrorCode.RATE_LIMITED), Optional.empty(), "", Optional.of(wait)).retryAfter())
                .contains(wait);
        assertThat(decide(Optional.of(ErrorCode.VALIDATION_ERROR), Optional.empty(), "", Optional.of(wait))
                .retryAfter()).isEmpty();
    }

    @Test
    void aDatabaseConnectionFailureIsNotOverruledByTheNoEvidenceCode() {
        // SQLSTATE 08006 (the sanitizer's mapping: UPSTREAM_ERROR), words that say nothing we know
        assertThat(decide(Optional.empty(), Optional.of(ErrorCode.UPSTREAM_ERROR),
                "terminating connection due to administrator command", Optional.empty()).code())
                .isEqualTo(ErrorCode.UPSTREAM_ERROR);
    }

    @Test
    void theServersOwnTimeoutStillCountsBesideACallersFieldNamedTimeout() {
        assertThat(Classifier.ofWords("Request timeout after 30000 ms", Set.of(), Set.of("timeout"),
                ErrorCode.VALIDATION_ERROR)).isEqualTo(ErrorCode.TIMEOUT);
    }

    @Test
    void aCallersFieldNamedTimeoutInAValidationMessageIsNotATimeout() {
        assertThat(Classifier.ofWords("timeout: Expected number, received string", Set.of(), Set.of("timeout"),
                ErrorCode.VALIDATION_ERROR)).isEqualTo(ErrorCode.VALIDATION_ERROR);
    }

    @Test
    void anInternalErrorAnUpstreamDeclaredIsItFailing() {
        assertThat(Classifier.decide(new Classifier.Evidence(Optional.of(ErrorCode.INTERNAL_ERROR), Optional.empty(),
                Optional.empty(), "", Set.of(), Set.of(), ErrorCode.VALIDATION_ERROR, Optional.empty())).code())
                .isEqualTo(ErrorCode.UPSTREAM_ERROR);
    }
}
