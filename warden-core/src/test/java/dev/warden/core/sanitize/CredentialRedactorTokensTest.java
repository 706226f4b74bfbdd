package dev.warden.core.sanitize;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.sanitize.GeneratedCredentials.Credential;
import dev.warden.core.sanitize.GeneratedCredentials.Format;
import dev.warden.core.sanitize.detection.CredentialFinding;
import dev.warden.core.sanitize.detection.CredentialKind;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Provider tokens, JWTs and URL passwords: found in their documented shapes, exactly at their span. */
class CredentialRedactorTokensTest {

    private static final CredentialRedactor REDACTOR = CredentialRedactor.ofDefaults();

    /** Where credentials turn up in tool results: files, env listings, JSON, shell, headers, Markdown. */
    private static final List<String> CONTEXTS = List.of("%s", "TOKEN=%s\n", "{\"key\": \"%s\", \"n\": 1}",
            "export API_KEY='%s'", "curl -H 'Authorization: Bearer %s' https://api.internal/v1", "(%s)",
            "| prod | `%s` |", "value: %s\r\n", "<token>%s</token>", "%s.", "key=%s&next=1", "\"%s\",\n");

    static List<Format> formats() {
        return GeneratedCredentials.formats();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("formats")
    void aGeneratedCredentialIsRedactedExactlyAtItsSpanInEveryContext(Format format) {
        Random random = new Random(format.name().hashCode());
        for (int i = 0; i < 400; i++) {
            Credential credential = format.make().apply(random);
            String context = CONTEXTS.get(i % CONTEXTS.size());
            String text = context.formatted(credential.value());
            int at = context.indexOf("%s") + credential.secretFrom();

            Redaction redaction = REDACTOR.redact(text);

            assertThat(redaction.findings()).as(text).containsExactly(
                    new CredentialFinding(format.kind(), at, credential.secret().length()));
            assertThat(redaction.text()).isEqualTo(Spans.replaced(text, redaction.findings()));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("formats")
    void aCredentialInsideALongerIdentifierOrDottedNameIsLeft(Format format) {
        Credential credential = format.make().apply(new Random(7));
        if (credential.secretFrom() > 0 || credential.secretTo() < credential.value().length()) {
            return; // the URL and webhook forms start with a scheme, which no identifier continues
        }
        // A longer tail is only tested by length (aPrefixWithTheWrongLengthIsLeft): for formats of
        // variable length, a credential with one more character is still a credential.
        for (String text : List.of("mask_" + credential.value(), "x" + credential.value(), "my-" + credential.value(),
                "0" + credential.value(), credential.value() + ".next")) {
            assertThat(REDACTOR.redact(text).text()).as(text).isSameAs(text);
        }
    }

    // Documented examples are split in the source so that secret scanners do not flag this file.

    @Test
    void stripesDocumentedTestKeyIsRedacted() {
        String key = "sk_test_" + "4eC39HqLyjWDarjtT1zdp7dc"; // Stripe API reference, "Authentication"

        assertThat(REDACTOR.redact("stripe.api_key = \"" + key + "\"").text())
                .isEqualTo("stripe.api_key = \"[redacted:stripe-key]\"");
    }

    @Test
    void githubsDocumentedOAuthTokenIsRedacted() {
        String token = "gho_" + "16C7e42F292c6912E7710c838347Ae178B4a"; // GitHub docs, "Authorizing OAuth apps"

        assertThat(REDACTOR.redact("Authorization: Bearer " + token).text())
                .isEqualTo("Authorization: Bearer [redacted:github-token]");
    }

    @Test
    void theJwtOfRfc7519IsRedacted() {
        String jwt = "eyJ0eXAiOiJKV1QiLA0KICJhbGciOiJIUzI1NiJ9"
                + ".eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ"
                + ".dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"; // RFC 7519 section 3.1

        assertThat(REDACTOR.redact("token: " + jwt + "\n").text()).isEqualTo("token: [redacted:jwt]\n");
    }

    @Test
    void jwtIosExampleTokenIsRedacted() {
        // Signed with "your-256-bit-secret", which people do copy into configs: it verifies, so it counts.
        String jwt = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ"
                + ".SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c";

        assertThat(REDACTOR.redact(jwt).findings()).extracting(CredentialFinding::kind).containsExactly(CredentialKind.JWT);
    }

    @Test
    void awssDocumentationKeyIsLeftSinceAwsMarksItAsAnExample() {
        String text = "aws_access_key_id = AKIA" + "IOSFODNN7EXAMPLE\n"; // AWS IAM User Guide

        assertThat(REDACTOR.redact(text).text()).isSameAs(text);
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", "ghp_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
            "ghp_abcdefghijklmnopqrstuvwxyzABCD012345", "ghp_000000000000000000000000000000000000",
            "github_pat_xxxxxxxxxxxxxxxxxxxxxx_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
            "glpat-XXXXXXXXXXX-XXXXXXXX", "glpat-xxxxxxxxxxxxxxxxxxxx", "glptt-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
            "xoxb-xxxxxxxxx-xxxxxxxxxx-xxxxxxxxxxxx", "xoxb-12345-abcd234", "xoxb-xoxb-my-bot-token",
            "xoxp-1234-1234-1234-4ddbc191d40ee098cbaae6f3523ada2d", "xoxb-Slack_BOT_TOKEN",
            "https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX",
            "sk_live_xxxxxxxxxxxxxxxxxxxxxxxx", "sk_test_YOUR_SECRET_KEY", "sk_test_...",
            "sk-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", "sk-proj-...", "sk-ant-api03-...",
            "AKIAXXXXXXXXXXXXXXXX", "AIzaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "AIzaSyabcdefghijklmnopqrstuvwxyz1234567",
            "npm_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX", "pypi-AgEIcHlwaS5vcmc...", "SG.xxxxx.yyyyy",
            "hf_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", "hf_requiredCharacteristicTypesForDisplayMetadata",
            "dop_v1_0000000000000000000000000000000000000000000000000000000000000000",
            "shpat_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", "AGE-SECRET-KEY-1XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX"})
    void aPlaceholderWrittenInATokensShapeIsLeft(String placeholder) {
        String text = "token: " + placeholder + "\n";

        assertThat(REDACTOR.redact(text).text()).isSameAs(text);
    }

    @Test
    void aPrefixWithTheWrongLengthIsLeft() {
        Random random = new Random(3);
        for (int length : new int[] {35, 37}) {
            String text = "ghp_" + GeneratedCredentials.chars(random, GeneratedCredentials.BASE62, length);
            assertThat(REDACTOR.redact(text).text()).as(text).isSameAs(text);
        }
    }

    @Test
    void anOpenAiStyleKeyWithoutOpenAisMarkerIsLeft() {
        // Other services use "sk-" too; without T3BlbkFJ the shape says nothing certain.
        String text = "sk-" + GeneratedCredentials.chars(new Random(5), GeneratedCredentials.BASE62, 48);

        assertThat(REDACTOR.redact(text).text()).isSameAs(text);
    }

    @Test
    void aTokenAfterAWrittenOutEscapeOrAPercentEncodedSeparatorIsFound() {
        String token = "npm_" + GeneratedCredentials.chars(new Random(11), GeneratedCredentials.BASE62, 36);

        assertThat(REDACTOR.redact("\"line\\n" + token + "\"").text()).isEqualTo("\"line\\n[redacted:npm-token]\"");
        assertThat(REDACTOR.redact("?auth%3D" + token).text()).isEqualTo("?auth%3D[redacted:npm-token]");
    }

    @Test
    void aGitCredentialUrlHasItsTokenRedactedOnce() {
        String token = "ghs_" + GeneratedCredentials.chars(new Random(13), GeneratedCredentials.BASE62, 36);
        String text = "https://x-access-token:" + token + "@github.com/org/repo.git";

        Redaction redaction = REDACTOR.redact(text);

        assertThat(redaction.text()).isEqualTo("https://x-access-token:[redacted:url-password]@github.com/org/repo.git");
        assertThat(redaction.findings()).hasSize(1);
    }
}
