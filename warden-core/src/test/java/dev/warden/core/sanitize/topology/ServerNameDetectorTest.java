package dev.warden.core.sanitize.topology;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.error.ErrorCode;
import dev.warden.core.sanitize.CallerInput;
import dev.warden.core.sanitize.Policy;
import dev.warden.core.sanitize.Sanitizer;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Names of one installation in a failure's prose, and the public vocabulary left alone. */
class ServerNameDetectorTest {

    private final Sanitizer sanitizer = Sanitizer.ofDefaults();

    private String redact(String text, CallerInput caller) {
        return sanitizer.sanitize(text, Policy.REDACT, ErrorCode.UPSTREAM_ERROR, caller).output();
    }

    @Test
    void aNumberedNameInAnApplicationsMessageIsRedacted() {
        // what a PL/pgSQL trigger's RAISE EXCEPTION put in front of node-postgres
        assertThat(redact("ledger cnry_ledger_7f3a is closed for period 2024-09", CallerInput.none()))
                .isEqualTo("ledger [redacted:name] is closed for period 2024-09");
    }

    @Test
    void aTenantsSchemaIsRedacted() {
        assertThat(redact("quota exceeded in tenant_4821.orders_2024_q3", CallerInput.none()))
                .isEqualTo("quota exceeded in [redacted:name].[redacted:name]");
    }

    @Test
    void aNameTheCallerSentComesBack() {
        CallerInput sent = CallerInput.ofStrings(List.of("SELECT * FROM orders_2024_q3"));

        assertThat(redact("permission denied for orders_2024_q3", sent)).isEqualTo("permission denied for orders_2024_q3");
    }

    @Test
    void vocabularyOfWordsAloneIsPublic() {
        assertThat(redact("Multiple of work_mem to use for hash tables.", CallerInput.none()))
                .isEqualTo("Multiple of work_mem to use for hash tables.");
        assertThat(redact("card declined (code do_not_honor)", CallerInput.none()))
                .isEqualTo("card declined (code do_not_honor)");
    }

    @Test
    void aCodeInCapitalsAndATextOfOneTokenAreLeftAlone() {
        assertThat(redact("failed with ER_SIGNAL_EXCEPTION_1644", CallerInput.none()))
                .isEqualTo("failed with ER_SIGNAL_EXCEPTION_1644");
        assertThat(redact("v2_not_found", CallerInput.none())).isEqualTo("v2_not_found");
    }

    @Test
    void aSecretShapedLikeANameIsStillASecret() {
        String out = redact("using sk_live_4eC39HqLyjWDarjtT1zdp7dc", CallerInput.none());

        assertThat(out).isEqualTo("using [redacted:stripe-key]");
    }

    @Test
    void theLocalPartOfAnEmailAndASegmentOfAPathAreNotNames() {
        assertThat(redact("mail to ada_l2@example.com bounced", CallerInput.none()))
                .isEqualTo("mail to ada_l2@example.com bounced");
        assertThat(redact("see https://example.com/v1/user_2fa for help", CallerInput.none()))
                .isEqualTo("see https://example.com/v1/user_2fa for help");
    }
}
