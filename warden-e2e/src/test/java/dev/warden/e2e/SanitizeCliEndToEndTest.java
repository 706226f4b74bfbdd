package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** {@code warden sanitize} from the outside: text in on stdin, safe text out on stdout. */
class SanitizeCliEndToEndTest {

    private static String run(String input, String... args) throws Exception {
        Path in = Files.createTempFile("sanitize-in", ".txt");
        Files.writeString(in, input, StandardCharsets.UTF_8);
        List<String> command = new java.util.ArrayList<>(List.of(Processes.LAUNCHER.toString(), "sanitize"));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectInput(in.toFile())
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).isZero();
        return out;
    }

    private static final String LEAKY = """
            Tool failed: org.postgresql.util.PSQLException: ERROR: duplicate key value violates unique constraint "users_email_key"
              Detail: Key (email)=(ada@example.com) already exists.
            \tat org.postgresql.core.v3.QueryExecutorImpl.receiveErrorResponse(QueryExecutorImpl.java:2725)
            connecting to postgres://svc:Sup3rS3cret@db-1.prod.internal:5432/app with ghp_0123456789abcdefghijklmnopqrstuvwxyz
            """;

    @Test
    void redactLeavesNothingSensitive() throws Exception {
        String out = run(LEAKY);
        assertThat(out).doesNotContain("users_email_key").doesNotContain("ada@example.com")
                .doesNotContain("QueryExecutorImpl").doesNotContain("Sup3rS3cret").doesNotContain("prod.internal")
                .doesNotContain("ghp_");
        // The database's message is kept (issue 14), the names the caller did not send are not.
        assertThat(out).contains("duplicate key value violates unique constraint \"[redacted:constraint-name]\"");
    }

    @Test
    void jsonReportsCategoriesAndSpans() throws Exception {
        JsonNode result = Json.mapper().readTree(run(LEAKY, "--json"));
        assertThat(result.get("policy").stringValue()).isEqualTo("redact");
        assertThat(result.get("findings").valueStream().map(f -> f.get("category").stringValue()).distinct())
                .contains("database", "stack-trace", "secret", "topology");
        JsonNode first = result.get("findings").get(0);
        assertThat(first.get("end").asInt()).isGreaterThan(first.get("start").asInt());
    }

    @Test
    void strictKeepsOnlyAGenericMessage() throws Exception {
        // Strict is the code and its generic message: the database error implied CONFLICT.
        assertThat(run(LEAKY, "--policy", "strict").trim()).isEqualTo("The request conflicts with the current state.");
    }

    @Test
    void harmlessTextPassesUnchanged() throws Exception {
        assertThat(run("/email: must be a valid email\n")).isEqualTo("/email: must be a valid email\n");
    }

    @Test
    void invalidUtf8IsRepaired() throws Exception {
        Path in = Files.createTempFile("sanitize-bad", ".bin");
        Files.write(in, new byte[] {'o', 'k', ' ', (byte) 0xC3, (byte) 0x28, ' ', 'e', 'n', 'd', '\n'});
        Process process = new ProcessBuilder(Processes.LAUNCHER.toString(), "sanitize").redirectInput(in.toFile())
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(out).isEqualTo("ok \uFFFD( end\n");
        assertThat(new File(in.toString())).exists();
    }
}
