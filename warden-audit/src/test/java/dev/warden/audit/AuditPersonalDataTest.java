package dev.warden.audit;

import static dev.warden.audit.ScriptedServer.isError;
import static dev.warden.audit.ScriptedServer.result;
import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Personal data in answers (WDN-L010) and on stderr (WDN-L102), by the sanitizer's detectors: what
 * the caller sent is its own, and numbers that only look like personal data are not.
 */
class AuditPersonalDataTest {

    private static final String EMAIL = "{\"type\":\"object\",\"properties\":{\"email\":{\"type\":\"string\","
            + "\"format\":\"email\"}},\"required\":[\"email\"]}";

    private static Report audit(ScriptedServer server) {
        return Audit.custom().target(server.target()).callTimeout(Duration.ofSeconds(5)).rate(10_000).build().run();
    }

    private static ScriptedServer answering(String text) {
        return new ScriptedServer().tool("whois", "{\"type\":\"object\"}", args -> Optional.of(result(
                "{\"content\":[{\"type\":\"text\",\"text\":" + Json.tree(text) + "}]}")));
    }

    @Test
    void an_email_in_a_successful_answer_is_personal_data() {
        Report report = audit(answering("Owner: Dana Whitfield <dana.whitfield@acmecorp.io>"));

        assertThat(report.findings()).filteredOn(f -> f.rule() == Rule.PERSONAL_DATA).singleElement().satisfies(f -> {
            assertThat(f.tool()).contains("whois");
            assertThat(f.location()).isEqualTo("/result/content/0/text");
            assertThat(f.message()).contains("email");
            assertThat(f.evidence()).isPresent();
        });
        assertThat(report.toString()).doesNotContain("dana.whitfield");
        assertThat(Rule.PERSONAL_DATA.severity()).isEqualTo(Severity.LOW);
    }

    @Test
    void a_phone_number_and_a_card_number_in_a_failure_are_personal_data() {
        ScriptedServer server = new ScriptedServer().tool("card_status", "{\"type\":\"object\"}", args -> Optional.of(
                isError("Card 4539 1488 0343 6467 declined; call the holder on +44 20 7946 0958")));

        Report report = audit(server);

        assertThat(report.findings()).as(report.toString()).filteredOn(f -> f.rule() == Rule.PERSONAL_DATA)
                .extracting(Finding::message).anySatisfy(m -> assertThat(m).contains("card-number"))
                .anySatisfy(m -> assertThat(m).contains("phone"));
    }

    @Test
    void what_the_caller_sent_and_numbers_that_only_look_personal_are_not() {
        // The audit's own email value echoed, a version, a timestamp, an order number that fails Luhn,
        // and a placeholder address at a domain reserved for examples.
        ScriptedServer server = new ScriptedServer().tool("subscribe", EMAIL, args -> Optional.of(result(
                "{\"content\":[{\"type\":\"text\",\"text\":" + Json.tree("Subscribed " + args.path("email").asString("")
                        + " on v10.4.1.20260101 at 1767225600000; order 4111111111111112; write to you@example.com;"
                        + " store postgres://app:Hunter2xyz@db.internal.corp/shop")
                        + "}]}")));

        Report report = audit(server);

        assertThat(report.findings()).noneMatch(f -> f.rule() == Rule.PERSONAL_DATA);
    }

    @Test
    void a_failure_that_names_a_temporary_folder_is_not_personal_data() {
        // Files.createTempDirectory names a folder by a random long; this one passes Luhn (a flaky
        // false positive on the audit twins' safe Java twin, whose failures name its work folder).
        ScriptedServer server = new ScriptedServer().tool("read_report", "{\"type\":\"object\"}", args -> Optional.of(
                isError("Error: java.nio.file.NoSuchFileException: /tmp/warden-twin-java-6507958311186346947/srv/var/"
                        + "lib/acme/corpus/archive/2024/q3/reports/example")));

        Report report = audit(server);

        assertThat(report.findings()).as(report.toString()).noneMatch(f -> f.rule() == Rule.PERSONAL_DATA);
    }

    /** A stdio server in sh whose every call logs an admin's email to stderr. */
    private static final List<String> SERVER = ShellServer.command("{\"name\":\"lookup\",\"inputSchema\":{\"type\":\"object\"}}",
            "printf 'lookup by admin ops.lead@northwind-mail.com\\n' >&2",
            "{\"content\":[{\"type\":\"text\",\"text\":\"ok\"}]}");

    @Test
    void an_email_on_stderr_is_personal_data_on_stderr() {
        Report report = Audit.custom().target(Target.stdio(SERVER))
                .callTimeout(Duration.ofSeconds(5)).rate(10_000).build().run();

        assertThat(report.findings()).filteredOn(f -> f.rule() == Rule.PERSONAL_DATA_ON_STDERR).singleElement()
                .satisfies(f -> {
                    assertThat(f.location()).isEqualTo("stderr");
                    assertThat(f.tool()).isEmpty();
                    assertThat(f.evidence()).isPresent();
                });
        assertThat(report.findings().toString()).doesNotContain("ops.lead");
    }
}
