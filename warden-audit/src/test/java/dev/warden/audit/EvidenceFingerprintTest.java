package dev.warden.audit;

import static dev.warden.audit.ScriptedServer.isError;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Evidence fingerprints are keyed with a random key drawn for each run (HMAC-SHA256): two findings
 * of one report holding the same value match, but a guessed value cannot be confirmed from a report.
 */
class EvidenceFingerprintTest {

    private static final String SCHEMA = "{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"string\"}},"
            + "\"required\":[\"id\"]}";
    private static final String KEY = "AKIAZ3MQ4T5VXW7YB2NC";

    private static Report audit() {
        ScriptedServer server = new ScriptedServer()
                .tool("orders", SCHEMA, args -> Optional.of(isError("upstream refused key " + KEY)))
                .tool("invoices", SCHEMA, args -> Optional.of(isError("upstream refused key " + KEY)));
        return Audit.custom().target(server.target()).callTimeout(Duration.ofSeconds(5)).rate(10_000).build().run();
    }

    private static String fingerprint(Report report, String tool) {
        return report.findings().stream().filter(f -> f.rule() == Rule.LEAK_SECRET && f.tool().equals(Optional.of(tool)))
                .findFirst().orElseThrow().evidence().orElseThrow().fingerprint();
    }

    @Test
    void within_one_run_the_same_value_has_one_fingerprint() {
        Report report = audit();

        assertThat(fingerprint(report, "orders")).isEqualTo(fingerprint(report, "invoices"));
    }

    @Test
    void another_run_fingerprints_the_same_value_otherwise_and_neither_is_its_plain_hash() throws Exception {
        String first = fingerprint(audit(), "orders");
        String second = fingerprint(audit(), "orders");
        String plain = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                .digest(KEY.getBytes(StandardCharsets.UTF_8))).substring(0, 12);

        assertThat(first).matches("[0-9a-f]{12}").isNotEqualTo(second).isNotEqualTo(plain);
        assertThat(second).isNotEqualTo(plain);
    }
}
