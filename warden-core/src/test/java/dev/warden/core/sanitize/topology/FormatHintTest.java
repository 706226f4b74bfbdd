package dev.warden.core.sanitize.topology;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.sanitize.Policy;
import dev.warden.core.sanitize.Sanitizer;
import org.junit.jupiter.api.Test;

/**
 * A format hint in a validation message ("must look like ord_123", "e.g. inv_2024_001") is what the
 * model needs to write its next call: the example stays, unless another detector finds a secret in it.
 */
class FormatHintTest {

    private final Sanitizer sanitizer = Sanitizer.ofDefaults();

    private String redact(String text) {
        return sanitizer.sanitize(text, Policy.REDACT).output();
    }

    @Test
    void anExampleAfterMustLookLikeStays() {
        assertThat(redact("orderId: must look like ord_123")).isEqualTo("orderId: must look like ord_123");
    }

    @Test
    void anExampleAfterEgStays() {
        assertThat(redact("Invalid invoice id, e.g. inv_2024_001")).isEqualTo("Invalid invoice id, e.g. inv_2024_001");
    }

    @Test
    void anExpectedFormatStays() {
        assertThat(redact("customer: expected format cus_9f2c1e (a customer id)"))
                .isEqualTo("customer: expected format cus_9f2c1e (a customer id)");
    }

    @Test
    void anExampleAfterSuchAsStays() {
        assertThat(redact("Pass a run id such as run_42 or run_43"))
                .isEqualTo("Pass a run id such as run_42 or run_43");
    }

    @Test
    void joisPatternMessageKeepsItsPattern() {
        // Joi 17's string.pattern.base, as joi.string().pattern(/^ord_[0-9]+$/) fails
        String joi = "\"orderId\" with value \"abc\" fails to match the required pattern: /^ord_[0-9]+$/";
        assertThat(redact(joi)).isEqualTo(joi);
    }

    @Test
    void aRealTokenAfterAHintIsStillRedacted() {
        assertThat(redact("token: must look like ghp_1a2B3c4D5e6F7g8H9i0JkLmNoPqRsTuVwXyZ12"))
                .doesNotContain("ghp_1a2B3c4D5e6F7g8H9i0JkLmNoPqRsTuVwXyZ12");
    }

    @Test
    void aServerNameOutsideAHintIsStillRedacted() {
        assertThat(redact("orderId: must look like ord_123; ledger cnry_ledger_7f3a is closed"))
                .isEqualTo("orderId: must look like ord_123; ledger [redacted:name] is closed");
    }
}
