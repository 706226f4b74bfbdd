package dev.warden.core.sanitize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.warden.core.sanitize.detection.CredentialFinding;
import dev.warden.core.sanitize.detection.CredentialKind;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** What {@link CredentialRedactor} promises as an API, whatever the kind. */
class CredentialRedactorTest {

    private static final CredentialRedactor REDACTOR = CredentialRedactor.ofDefaults();
    private static final Random RANDOM = new Random(20_261_123L);

    private static String githubToken() {
        return "ghp_" + GeneratedCredentials.chars(RANDOM, GeneratedCredentials.BASE62, 36);
    }

    @Test
    void returnsTheVeryStringItWasGivenWhenItFindsNothing() {
        String text = new String("const token = process.env.API_TOKEN;\n");

        Redaction redaction = REDACTOR.redact(text);

        assertThat(redaction.text()).isSameAs(text);
        assertThat(redaction.findings()).isEmpty();
        assertThat(redaction.changed()).isFalse();
    }

    @Test
    void replacesExactlyTheCredentialsSpanWithItsKindsMarker() {
        String token = githubToken();
        String text = "git remote set-url origin \"" + token + "\"; echo done";

        Redaction redaction = REDACTOR.redact(text);

        assertThat(redaction.text()).isEqualTo("git remote set-url origin \"[redacted:github-token]\"; echo done");
        assertThat(redaction.findings()).containsExactly(
                new CredentialFinding(CredentialKind.GITHUB_TOKEN, text.indexOf(token), token.length()));
    }

    @Test
    void reportsFindingsInTextOrderWithOffsetsIntoTheGivenText() {
        String first = githubToken();
        String second = GeneratedCredentials.jwt(RANDOM);
        String text = "a=" + first + "\nb=" + second + "\n";

        List<CredentialFinding> findings = REDACTOR.redact(text).findings();

        assertThat(findings).extracting(CredentialFinding::kind)
                .containsExactly(CredentialKind.GITHUB_TOKEN, CredentialKind.JWT);
        assertThat(text.substring(findings.get(0).offset(), findings.get(0).end())).isEqualTo(first);
        assertThat(text.substring(findings.get(1).offset(), findings.get(1).end())).isEqualTo(second);
    }

    @Test
    void markersNameTheKind() {
        assertThat(CredentialKind.GITHUB_TOKEN.marker()).isEqualTo("[redacted:github-token]");
        assertThat(CredentialKind.URL_PASSWORD.marker()).isEqualTo("[redacted:url-password]");
        assertThat(CredentialKind.values()).extracting(CredentialKind::label).doesNotHaveDuplicates();
    }

    @Test
    void redactingItsOwnOutputChangesNothingMore() {
        String text = "token " + githubToken() + " at postgres://app:" + "Zq8vLr2Wx7Kp" + "@db.internal/app";

        String once = REDACTOR.redact(text).text();

        assertThat(REDACTOR.redact(once).text()).isSameAs(once);
    }

    @Test
    void aKindTurnedOffIsLeftAlone() {
        String text = "GH=" + githubToken() + " DB=postgres://app:Zq8vLr2Wx7Kp@db.internal/app";
        CredentialRedactor noUrls = CredentialRedactor.custom().disable(CredentialKind.URL_PASSWORD).build();

        Redaction redaction = noUrls.redact(text);

        assertThat(redaction.findings()).extracting(CredentialFinding::kind).containsExactly(CredentialKind.GITHUB_TOKEN);
        assertThat(redaction.text()).endsWith("DB=postgres://app:Zq8vLr2Wx7Kp@db.internal/app");
        assertThat(noUrls.kinds()).doesNotContain(CredentialKind.URL_PASSWORD);
    }

    @Test
    void aKindTurnedOffCanBeTurnedOnAgain() {
        CredentialRedactor redactor = CredentialRedactor.custom()
                .disable(CredentialKind.JWT, CredentialKind.PRIVATE_KEY)
                .enable(CredentialKind.JWT)
                .build();

        assertThat(redactor.kinds()).contains(CredentialKind.JWT).doesNotContain(CredentialKind.PRIVATE_KEY);
    }

    @Test
    void onlyTheChosenKindsAreRedacted() {
        String text = "GH=" + githubToken() + " JWT=" + GeneratedCredentials.jwt(RANDOM);
        CredentialRedactor jwtOnly = CredentialRedactor.custom().only(List.of(CredentialKind.JWT)).build();

        assertThat(jwtOnly.redact(text).findings()).extracting(CredentialFinding::kind)
                .containsExactly(CredentialKind.JWT);
        assertThat(CredentialRedactor.custom().only(List.of()).build().redact(text).text()).isSameAs(text);
    }

    @Test
    void everyKindIsOnByDefault() {
        assertThat(CredentialRedactor.ofDefaults().kinds()).containsExactlyInAnyOrder(CredentialKind.values());
    }

    @Test
    void refusesNullText() {
        assertThatThrownBy(() -> REDACTOR.redact(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void aFindingHasAPositiveLengthAtANonNegativeOffset() {
        assertThatThrownBy(() -> new CredentialFinding(CredentialKind.JWT, -1, 3))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new CredentialFinding(CredentialKind.JWT, 0, 0))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void controlCharactersAndLongTextAreKeptAsTheyAre() {
        // Unlike the failure-text sanitizer: no stripping, no truncation, since a file must survive a round trip.
        String text = "\u001b[31mred\u001b[0m\u0000\t" + "x".repeat(100_000);

        assertThat(REDACTOR.redact(text).text()).isSameAs(text);
    }
}
