package dev.warden.core.sanitize;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** JSON Web Tokens: signed or encrypted ones are redacted whole; things that only start like one are left. */
class CredentialRedactorJwtTest {

    private static final CredentialRedactor REDACTOR = CredentialRedactor.ofDefaults();
    private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();
    private static final String SIGNATURE = GeneratedCredentials.chars(new Random(1), GeneratedCredentials.BASE64URL, 43);

    private static String segment(String json) {
        return B64.encodeToString(json.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void anUnsignedJwtIsLeft() {
        String text = segment("{\"alg\":\"none\"}") + "." + segment("{\"sub\":\"ada\"}") + "." + SIGNATURE;

        assertThat(REDACTOR.redact(text).text()).isSameAs(text);
    }

    @Test
    void aHeaderWithoutAlgIsNoJwt() {
        String text = segment("{\"typ\":\"JWT\",\"kid\":\"k1\"}") + "." + segment("{\"sub\":\"ada\"}") + "." + SIGNATURE;

        assertThat(REDACTOR.redact(text).text()).isSameAs(text);
    }

    @Test
    void aPayloadThatIsNoJsonObjectIsNoJwt() {
        String text = segment("{\"alg\":\"HS256\"}") + "." + segment("just bytes, not claims") + "." + SIGNATURE;

        assertThat(REDACTOR.redact(text).text()).isSameAs(text);
    }

    @Test
    void aBase64JsonValueAloneIsLeft() {
        // Cursors, state parameters and data attributes are often base64 JSON: one segment, no signature.
        String text = "next_cursor=" + segment("{\"alg\":\"HS256\",\"page\":2}") + "&limit=50";

        assertThat(REDACTOR.redact(text).text()).isSameAs(text);
    }

    @Test
    void aShortSignatureIsNoSignature() {
        String text = segment("{\"alg\":\"HS256\"}") + "." + segment("{\"a\":1}") + ".abc";

        assertThat(REDACTOR.redact(text).text()).isSameAs(text);
    }

    @Test
    void anEncryptedJwtIsRedactedWithAllFiveSegments() {
        Random random = new Random(2);
        String jwe = segment("{\"alg\":\"RSA-OAEP\",\"enc\":\"A256GCM\"}")
                + "." + GeneratedCredentials.chars(random, GeneratedCredentials.BASE64URL, 342)
                + "." + GeneratedCredentials.chars(random, GeneratedCredentials.BASE64URL, 16)
                + "." + GeneratedCredentials.chars(random, GeneratedCredentials.BASE64URL, 200)
                + "." + GeneratedCredentials.chars(random, GeneratedCredentials.BASE64URL, 22);

        assertThat(REDACTOR.redact("Cookie: session=" + jwe + "; Path=/").text())
                .isEqualTo("Cookie: session=[redacted:jwt]; Path=/");
    }

    @Test
    void aJwtFollowedByASentencesFullStopIsRedactedWithoutIt() {
        String jwt = GeneratedCredentials.jwt(new Random(3));

        assertThat(REDACTOR.redact("Use " + jwt + ".").text()).isEqualTo("Use [redacted:jwt].");
    }

    @Test
    void aDottedRunOfFourSegmentsIsNoJwt() {
        String text = GeneratedCredentials.jwt(new Random(4)) + ".extra";

        assertThat(REDACTOR.redact(text).text()).isSameAs(text);
    }
}
