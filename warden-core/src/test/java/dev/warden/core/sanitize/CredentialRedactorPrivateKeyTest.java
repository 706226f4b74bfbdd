package dev.warden.core.sanitize;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** PEM private key blocks: the whole block, wherever and however it is written; headers alone are left. */
class CredentialRedactorPrivateKeyTest {

    private static final CredentialRedactor REDACTOR = CredentialRedactor.ofDefaults();
    // Split so that secret scanners do not take this source for a key.
    private static final String BEGIN = "-----BEGIN ";

    @Test
    void aGeneratedKeyIsRedactedFromBeginToEnd() {
        for (String algorithm : new String[] {"RSA", "EC", "Ed25519"}) {
            String pem = GeneratedCredentials.pemPrivateKey(algorithm, "\n");
            String text = "$ cat id.pem\n" + pem + "\n$ ";

            assertThat(REDACTOR.redact(text).text()).as(algorithm).isEqualTo("$ cat id.pem\n[redacted:private-key]\n$ ");
        }
    }

    @Test
    void rfc8410sEd25519ExampleKeyIsRedacted() {
        String pem = BEGIN + "PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEINTuctv5E1hK1bbY8fdp+K06/nwoy/HU++CXqI9EdVhC\n"
                + "-----END PRIVATE KEY-----"; // RFC 8410 section 10.3

        assertThat(REDACTOR.redact(pem + "\n").text()).isEqualTo("[redacted:private-key]\n");
    }

    @Test
    void aKeyInsideAJsonStringWithWrittenOutLineBreaksIsRedactedAndTheJsonStaysValid() {
        // As in a Google service account file read as text.
        String pem = GeneratedCredentials.pemPrivateKey("RSA", "\\n");
        String text = "{\"type\": \"service_account\", \"private_key\": \"" + pem + "\\n\", \"client_id\": \"1\"}";

        assertThat(REDACTOR.redact(text).text()).isEqualTo(
                "{\"type\": \"service_account\", \"private_key\": \"[redacted:private-key]\\n\", \"client_id\": \"1\"}");
    }

    @Test
    void anIndentedKeyInYamlIsRedacted() {
        String pem = GeneratedCredentials.pemPrivateKey("EC", "\n    ");
        String text = "tls:\n  key: |\n    " + pem + "\n  cert: cert.pem\n";

        assertThat(REDACTOR.redact(text).text()).isEqualTo("tls:\n  key: |\n    [redacted:private-key]\n  cert: cert.pem\n");
    }

    @Test
    void aLegacyEncryptedKeyIsRedactedWithItsHeaders() {
        String body = GeneratedCredentials.pemPrivateKey("RSA", "\n").lines()
                .filter(line -> !line.startsWith("-----")).reduce((a, b) -> a + "\n" + b).orElseThrow();
        String pem = BEGIN + "RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,0123456789ABCDEF\n\n"
                + body + "\n-----END RSA PRIVATE KEY-----";

        assertThat(REDACTOR.redact(pem).text()).isEqualTo("[redacted:private-key]");
    }

    @Test
    void aKeyCutOffBeforeItsEndLineIsRedactedUpToItsLastFullLine() {
        String pem = GeneratedCredentials.pemPrivateKey("RSA", "\n");
        String head = pem.substring(0, pem.indexOf('\n', pem.indexOf('\n') + 1 + 64 * 5) + 1) + "MIIBxyz";

        String redacted = REDACTOR.redact(head + "\n(truncated)").text();

        assertThat(redacted).isEqualTo("[redacted:private-key]\nMIIBxyz\n(truncated)");
    }

    @Test
    void codeThatOnlyNamesTheHeaderIsLeft() {
        String text = "if (pem.startsWith(\"" + BEGIN + "RSA PRIVATE KEY-----\")) {\n  return parsePkcs1(pem);\n}";

        assertThat(REDACTOR.redact(text).text()).isSameAs(text);
    }

    @Test
    void documentationThatElidesTheBodyIsLeft() {
        String text = BEGIN + "PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC...\n-----END PRIVATE KEY-----";

        assertThat(REDACTOR.redact(text).text()).isSameAs(text);
    }

    @Test
    void publicKeysAndCertificatesAreLeft() {
        String body = GeneratedCredentials.pemPrivateKey("EC", "\n").lines()
                .filter(line -> !line.startsWith("-----")).reduce((a, b) -> a + "\n" + b).orElseThrow();
        for (String label : new String[] {"PUBLIC KEY", "CERTIFICATE", "OPENSSH PUBLIC KEY"}) {
            String text = BEGIN + label + "-----\n" + body + "\n-----END " + label + "-----\n";

            assertThat(REDACTOR.redact(text).text()).as(label).isSameAs(text);
        }
    }

    @Test
    void everyPrivateKeyLabelIsRecognised() {
        String body = GeneratedCredentials.pemPrivateKey("EC", "\n").lines()
                .filter(line -> !line.startsWith("-----")).reduce((a, b) -> a + "\n" + b).orElseThrow();
        for (String label : new String[] {"PRIVATE KEY", "RSA PRIVATE KEY", "EC PRIVATE KEY", "DSA PRIVATE KEY",
                "ENCRYPTED PRIVATE KEY", "OPENSSH PRIVATE KEY", "PGP PRIVATE KEY BLOCK"}) {
            String text = BEGIN + label + "-----\n" + body + "\n-----END " + label + "-----";

            assertThat(REDACTOR.redact(text).text()).as(label).isEqualTo("[redacted:private-key]");
        }
    }
}
