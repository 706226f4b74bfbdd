package dev.warden.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import tools.jackson.databind.JsonNode;

/**
 * What {@code warden sanitize} prints for text, a JSON document, JSON lines and log lines that carry
 * JSON. The inputs in {@code /sanitize} were captured from real software (see the README there).
 */
class SanitizeCommandTest {

    private static String sample(String name) {
        try (InputStream in = SanitizeCommandTest.class.getResourceAsStream("/sanitize/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String sanitize(String stdin, String... options) {
        String[] args = new String[options.length + 1];
        args[0] = "sanitize";
        System.arraycopy(options, 0, args, 1, options.length);
        StringWriter out = new StringWriter();
        CommandLine line = Warden.commandLine(args);
        SanitizeCommand command = (SanitizeCommand) line.getSubcommands().get("sanitize").getCommand();
        command.stdin = new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8));
        line.setOut(new PrintWriter(out));
        line.setErr(new PrintWriter(new StringWriter()));
        assertThat(line.execute(args)).isZero();
        return out.toString();
    }

    private static JsonNode parse(String json) {
        return Json.mapper().readTree(json);
    }

    @Test
    void whatTheCallerSentComesBackWhenItIsSaid() {
        String error = "ERROR:  column \"emial\" does not exist\nLINE 1: SELECT emial FROM customers\n               ^\n";

        assertThat(sanitize(error, "--caller", "{\"sql\":\"SELECT emial FROM customers\"}"))
                .contains("column \"emial\" does not exist");
    }

    @Test
    void theJsonReportHasTheViolationsOfAWellKnownErrorShape() {
        String jsonApi = "{\"errors\":[{\"status\":\"422\",\"detail\":\"must be a valid email\","
                + "\"source\":{\"pointer\":\"/data/attributes/email\"}}]}";

        JsonNode report = parse(sanitize(jsonApi, "--json"));

        assertThat(report.at("/violations/0/pointer").stringValue()).isEqualTo("/data/attributes/email");
        assertThat(report.at("/violations/0/message").stringValue()).isEqualTo("must be a valid email");
    }

    @Test
    void theJsonReportPointsAtTheArgumentAProseFailureNames() {
        JsonNode report = parse(sanitize("\"email\" must be a valid email", "--json", "--caller",
                "{\"email\":\"ada-at-example\"}"));

        assertThat(report.at("/violations/0/pointer").stringValue()).isEqualTo("/email");
    }

    @Test
    void aDatabaseDetailInAnErrorsDataLosesTheEmailTheCallerDidNotSendAndKeepsTheField() {
        String caller = "{\"email\":\"ada@customer-a.example\",\"name\":\"Ada\"}";

        JsonNode report = parse(sanitize(sample("pg-unique-violation-data.json"), "--json", "--caller", caller));

        String output = report.get("output").stringValue();
        assertThat(output).doesNotContain("grace.hopper@customer-b.example");
        assertThat(parse(output).at("/error/data/detail").stringValue()).startsWith("Key (email)=(")
                .endsWith(") already exists.");
        assertThat(report.get("code").stringValue()).isEqualTo("CONFLICT");
    }

    @Test
    void plainTextIsSanitizedAsOneText() {
        String out = sanitize(sample("java-stack.txt"));

        assertThat(out).isEqualTo("[redacted:stack-trace]\n");
    }

    @Test
    void aJsonDocumentIsSanitizedAsATreeAndStaysJson() {
        String out = sanitize(sample("node-stack.json") + "\n");

        // The frames go; the message line stays (issue 31: a trace loses its frames, not its message).
        assertThat(parse(out).get("error").stringValue()).isEqualTo(
                "SyntaxError: Expected double-quoted property name in JSON at position 9\n[redacted:stack-trace]");
        assertThat(out).doesNotContain("billing-canary", "node:internal", "loadInvoice").endsWith("}\n");
    }

    @Test
    void aBenignJsonDocumentComesBackByteForByte() {
        String doc = "{\n  \"items\" : [ {\"id\": 1, \"price\": 12.50}, {\"id\": 2, \"price\": 1e3} ],\n"
                + "  \"next\": null\n}\n";

        assertThat(sanitize(doc)).isEqualTo(doc);
    }

    @Test
    void aChangedPrettyDocumentIsWrittenPretty() {
        String out = sanitize("{\n  \"path\": \"/srv/app/data/users.db\",\n  \"n\": 1.50\n}\n");

        assertThat(out).isEqualTo("{\n  \"path\" : \"[redacted:path]\",\n  \"n\" : 1.50\n}\n");
    }

    @Test
    void jsonLinesAreEachSanitizedAsATreeAndBenignLinesStayAsTheyCame() {
        String log = sample("node-pino-style.jsonl");
        List<String> in = log.lines().toList();

        List<String> out = sanitize(log).lines().toList();

        assertThat(out).hasSize(3);
        assertThat(out.get(0)).isEqualTo(in.get(0));
        assertThat(out.get(2)).isEqualTo(in.get(2));
        JsonNode error = parse(out.get(1));
        assertThat(error.get("msg").stringValue()).isEqualTo("request failed");
        assertThat(error.at("/err/code").stringValue()).isEqualTo("ENOENT");
        assertThat(out.get(1)).doesNotContain("billing-canary", "stripe.key", "server.js");
    }

    @Test
    void aLogLineKeepsItsPrefixAndItsJsonIsSanitizedAsATree() {
        List<String> in = sample("python-logging.log").lines().toList();

        List<String> out = sanitize(sample("python-logging.log")).lines().toList();

        String prefix = in.get(0).substring(0, in.get(0).indexOf('{'));
        assertThat(out.get(0)).startsWith(prefix);
        JsonNode json = parse(out.get(0).substring(prefix.length()));
        assertThat(json.get("err").stringValue()).doesNotContain("handler.py", "billing-canary");
        assertThat(json.get("request_id").stringValue()).isEqualTo("req-7f3a");
        assertThat(out.get(1)).isEqualTo(in.get(1));
    }

    @Test
    void textLinesBetweenJsonLinesAreSanitizedTogether() {
        String log = sample("node-pino-style.jsonl").lines().findFirst().orElseThrow() + "\n"
                + sample("java-stack.txt");

        List<String> out = sanitize(log).lines().toList();

        assertThat(out).hasSize(2);
        assertThat(out.get(1)).isEqualTo("[redacted:stack-trace]");
    }

    @Test
    void jsonModeReportsTheLineAndPointerOfEachFinding() {
        String log = sample("node-pino-style.jsonl");

        JsonNode report = parse(sanitize(log, "--json"));

        assertThat(report.get("policy").stringValue()).isEqualTo("redact");
        assertThat(report.get("findings")).isNotEmpty().allSatisfy(f -> {
            assertThat(f.get("line").intValue()).isEqualTo(2);
            assertThat(f.get("pointer").stringValue()).startsWith("/err/");
        });
        assertThat(report.get("output").stringValue().lines().count()).isEqualTo(3);
    }

    @Test
    void jsonModeForPlainTextIsAsBefore() {
        JsonNode report = parse(sanitize("connect to 10.1.2.3 failed", "--json"));

        assertThat(report.get("output").stringValue()).isEqualTo("connect to [redacted:internal-ip] failed");
        assertThat(report.get("findings").get(0).has("line")).isFalse();
    }

    @Test
    void aDocumentAfterAByteOrderMarkIsStillOneJsonDocument() {
        String out = sanitize("\uFEFF{\n  \"cause\": {\"path\": \"/srv/app/data/users.db\"}\n}\n");

        assertThat(out).isEqualTo("\uFEFF{\n  \"cause\" : {\n    \"path\" : \"[redacted:path]\"\n  }\n}\n");
    }

    @Test
    void strictKeepsTheShapeOfAJsonDocument() {
        String out = sanitize("{\"msg\":\"anything\",\"n\":3}", "--policy", "strict");

        assertThat(parse(out).get("n").intValue()).isEqualTo(3);
        assertThat(parse(out).get("msg").stringValue()).isEqualTo("An internal error occurred.");
    }
}
