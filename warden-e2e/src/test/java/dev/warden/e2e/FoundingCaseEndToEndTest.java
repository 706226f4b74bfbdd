package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The founding case (ash-project/ash_ai#158): a JSON:API validation error whose fix is a JSON pointer
 * ({@code /data/attributes/email}) keeps its pointer and message in every shape a server answers it in
 * ({@code founding-case-server.mjs}: a "pointer: message" line, the error document as text, JSON-RPC
 * error data, the document encoded twice, the real ajv's errors), with and without the caller's
 * arguments, through {@code warden wrap} and {@code warden sanitize}. Asserted on the raw bytes the
 * client (or the shell) receives.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FoundingCaseEndToEndTest {

    static final Duration GUARD = Duration.ofSeconds(60);
    static final String ARGUMENTS = "{\"data\":{\"attributes\":{\"email\":\"not-an-email\"},"
            + "\"relationships\":{\"personas\":[]}}}";
    Path dataDir;
    LinePeer peer;
    int nextId = 10;

    @BeforeAll
    void start() throws Exception {
        dataDir = Files.createTempDirectory("warden-founding-case");
        peer = new LinePeer(List.of(Processes.LAUNCHER.toString(), "wrap", "--data-dir", dataDir.toString(), "--",
                Processes.NODE, Processes.NODE_DIR.resolve("founding-case-server.mjs").toString()));
        peer.call(1, "initialize", "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
                + "\"clientInfo\":{\"name\":\"e2e\",\"version\":\"1\"}}", GUARD);
        peer.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
    }

    @AfterAll
    void stop() throws Exception {
        peer.close();
    }

    @ParameterizedTest(name = "{0} with arguments {1}")
    @CsvSource(delimiter = '|', value = {
        "text                | {}    | /data/attributes/email       | must be a valid email",
        "text                | given | /data/attributes/email       | must be a valid email",
        "jsonapi_document    | {}    | /data/relationships/personas | At least one persona is required",
        "jsonapi_document    | given | /data/attributes/email       | must be a valid email",
        "jsonrpc_data_errors | {}    | /data/attributes/email       | must be a valid email",
        "jsonrpc_data_errors | given | /data/relationships/personas | At least one persona is required",
        "double_encoded      | {}    | /data/relationships/personas | At least one persona is required",
        "double_encoded      | given | /data/attributes/email       | must be a valid email",
        "ajv                 | given | /data/attributes/email       | must match format",
        "ajv                 | {}    | must have required property  | must have required property",
    })
    void throughWrapThePointerAndItsMessageReachTheClient(String tool, String arguments, String pointer,
            String message) throws Exception {
        String args = arguments.equals("given") ? ARGUMENTS : "{}";
        String line = peer.call(nextId++, "tools/call", "{\"name\":\"" + tool + "\",\"arguments\":" + args + "}",
                GUARD);
        assertThat(line).contains(pointer).contains(message).doesNotContain("[redacted:");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "/data/attributes/email: must be a valid email",
        "{\"errors\":[{\"detail\":\"At least one persona is required\",\"source\":{\"pointer\":\"/data/relationships/personas\"}}]}",
        "{\"error\":{\"code\":-32602,\"message\":\"Invalid params\",\"data\":{\"errors\":[{\"detail\":\"must be a valid email\",\"source\":{\"pointer\":\"/data/attributes/email\"}}]}}}",
        "\"{\\\"errors\\\":[{\\\"detail\\\":\\\"At least one persona is required\\\",\\\"source\\\":{\\\"pointer\\\":\\\"/data/relationships/personas\\\"}}]}\"",
    })
    void throughSanitizeTheFoundingCaseStaysByteForByte(String input) throws Exception {
        assertThat(sanitize(input + "\n")).isEqualTo(input + "\n");
        assertThat(sanitize(input + "\n", "--caller", ARGUMENTS)).isEqualTo(input + "\n");
    }

    private static String sanitize(String input, String... args) throws Exception {
        Path in = Files.createTempFile("founding-case", ".txt");
        Files.writeString(in, input, StandardCharsets.UTF_8);
        List<String> command = new ArrayList<>(List.of(Processes.LAUNCHER.toString(), "sanitize"));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectInput(in.toFile())
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).isZero();
        return out;
    }
}
