package dev.warden.core.sanitize.database;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.error.ErrorCode;
import dev.warden.core.json.Json;
import dev.warden.core.sanitize.CallerInput;
import dev.warden.core.sanitize.Policy;
import dev.warden.core.sanitize.SanitizedText;
import dev.warden.core.sanitize.Sanitizer;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

/**
 * Database errors as real clients print them (captured from PostgreSQL, MariaDB and SQLite by
 * scripts/capture-database-errors.py; SQL Server and Oracle from their error references), each with
 * the arguments the caller sent: what the caller wrote survives, the server's own names do not,
 * and the code is the one the error means.
 */
class DatabaseErrorsTest {

    private static final Sanitizer SANITIZER = Sanitizer.ofDefaults();

    record Sample(String name, JsonNode arguments, String text, ErrorCode code, List<String> keep, List<String> never) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Sample> samples() {
        List<Sample> out = new ArrayList<>();
        for (String file : List.of("captured.jsonl", "documented.jsonl")) {
            for (JsonNode node : load(file)) {
                out.add(new Sample(node.get("database").stringValue() + " " + node.get("id").stringValue() + " ("
                        + node.get("client").stringValue() + ")", node.get("arguments"), node.get("text").stringValue(),
                        ErrorCode.valueOf(node.get("code").stringValue()), strings(node.get("keep")),
                        strings(node.get("never"))));
            }
        }
        return out.stream();
    }

    private SanitizedText sanitize(Sample sample) {
        return SANITIZER.sanitize(sample.text(), Policy.REDACT, ErrorCode.UPSTREAM_ERROR,
                CallerInput.of(sample.arguments()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("samples")
    void whatTheCallerWroteSurvives(Sample sample) {
        String output = sanitize(sample).output();
        for (String keep : sample.keep()) {
            if (sample.text().contains(keep)) {
                assertThat(output).as("%s\n→ %s", sample.text(), output).contains(keep);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("samples")
    void theServersOwnNamesDoNotComeOut(Sample sample) {
        String output = sanitize(sample).output();
        for (String never : sample.never()) {
            assertThat(output).as("%s\n→ %s", sample.text(), output).doesNotContain(never);
        }
        // every canary the fixtures planted, unless the caller's own arguments name it
        String sent = sample.arguments().toString().toLowerCase(java.util.Locale.ROOT);
        for (String word : sample.text().split("[^A-Za-z0-9_.-]+")) {
            if (word.toLowerCase(java.util.Locale.ROOT).contains("canary")
                    && !sent.contains(word.toLowerCase(java.util.Locale.ROOT))) {
                assertThat(output).as("%s\n→ %s", sample.text(), output).doesNotContainIgnoringCase(word);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("samples")
    void theCodeIsTheOneTheErrorMeans(Sample sample) {
        SanitizedText result = sanitize(sample);
        assertThat(result.suggestedCode()).as("%s\n→ %s", sample.text(), result.output()).contains(sample.code());
    }

    private static List<JsonNode> load(String file) {
        try (InputStream in = DatabaseErrorsTest.class.getResourceAsStream("/database-errors/" + file)) {
            List<JsonNode> out = new ArrayList<>();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!line.isBlank()) {
                    out.add(Json.mapper().readTree(line));
                }
            }
            return out;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.stringValue()));
        return out;
    }
}
