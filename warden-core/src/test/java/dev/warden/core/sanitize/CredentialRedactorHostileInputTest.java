package dev.warden.core.sanitize;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Inputs built to make a careless scanner quadratic: every match attempt here starts, reads and
 * fails, a million times over. Each is a hang guard, not a speed check: a linear scan finishes them
 * at once, a quadratic one would not finish in a test run.
 */
class CredentialRedactorHostileInputTest {

    private static final CredentialRedactor REDACTOR = CredentialRedactor.ofDefaults();
    private static final int MEGABYTE = 1 << 20;

    private static String repeat(String unit) {
        return unit.repeat(MEGABYTE / unit.length());
    }

    @Test
    void jwtHeadersAndPayloadsWithoutSignaturesAreLeft() {
        String text = repeat("eyJhbGciOiJIUzI1NiJ9.eyJhIjoxfQ. eyJhbGciOiJIUzI1NiJ9 ");

        assertThat(REDACTOR.redact(text).text()).isSameAs(text);
    }

    @Test
    void pemHeadersWithoutBodiesAreLeft() {
        String text = repeat("-----BEGIN RSA PRIVATE KEY-----\n");

        assertThat(REDACTOR.redact(text).text()).isSameAs(text);
    }

    @Test
    void schemesAndUserinfoWithoutHostsAreLeft() {
        assertThat(REDACTOR.redact(repeat("a://b:c")).findings()).isEmpty();
        assertThat(REDACTOR.redact(repeat("x://" + "u:".repeat(200))).findings()).isEmpty();
    }

    @Test
    void slackPrefixesWithEndlessSegmentsAreLeft() {
        String text = repeat("xoxb-1-");

        assertThat(REDACTOR.redact(text).text()).isSameAs(text);
    }

    @Test
    void tokenPrefixesOneAfterAnotherAreLeft() {
        String text = repeat("ghp_ sk-ant- AKIA AIza pypi-AgEIcHlwaS5vcmc ");

        assertThat(REDACTOR.redact(text).text()).isSameAs(text);
    }

    @Test
    void aMegabyteOfRandomBase64IsScannedThrough() {
        String text = GeneratedCredentials.chars(new Random(17), GeneratedCredentials.BASE62 + "+/=.-_\n ", MEGABYTE);

        assertThat(REDACTOR.redact(text).text()).hasSizeGreaterThan(MEGABYTE / 2);
    }

    @Test
    void aMegabyteOfCredentialsIsRedactedWhole() {
        StringBuilder text = new StringBuilder();
        Random random = new Random(19);
        int count = 0;
        while (text.length() < MEGABYTE) {
            text.append(GeneratedCredentials.jwt(random)).append('\n');
            count++;
        }

        assertThat(REDACTOR.redact(text.toString()).findings()).hasSize(count);
    }
}
