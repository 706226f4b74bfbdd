package dev.warden.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** A real child process serving over its stdin/stdout. */
class StdioServingTest {

    private static final String JAVA = Path.of(System.getProperty("java.home"), "bin", "java").toString();

    private record Run(List<String> stdout, String stderr, int exitCode) {
    }

    private static Run serve(String... lines) throws Exception {
        Process process = new ProcessBuilder(JAVA, "-cp", System.getProperty("java.class.path"),
                "dev.warden.server.fixtures.NoisyServerMain")
                .redirectError(ProcessBuilder.Redirect.PIPE).start();
        Thread.ofVirtual().start(() -> {
            try (OutputStream in = process.getOutputStream()) {
                for (String line : lines) {
                    in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
                }
            } catch (Exception ignored) {
                // the process may already be gone
            }
        });
        List<String> out = new ArrayList<>();
        StringBuilder err = new StringBuilder();
        Thread errReader = Thread.ofVirtual().start(() -> {
            try {
                err.append(new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
            } catch (Exception ignored) {
                // nothing more to read
            }
        });
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                out.add(line);
            }
        }
        // Hang guard only: EOF on stdin must end the process.
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("exits after stdin closes").isTrue();
        errReader.join();
        return new Run(out, err.toString(), process.exitValue());
    }

    private static final String INIT = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
            + "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}";

    @Test
    void stdoutCarriesProtocolMessagesOnlyEvenWhenToolsPrint() throws Exception {
        Run run = serve(INIT, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"noisy\"}}");
        assertThat(run.stdout()).hasSize(2);
        for (String line : run.stdout()) {
            JsonNode message = Json.mapper().readTree(line);
            assertThat(message.get("jsonrpc").stringValue()).isEqualTo("2.0");
        }
        assertThat(run.stderr()).contains("debug print from a tool").contains("\"type\":\"incident\"");
    }

    @Test
    void aTypedToolsSchemaGeneratorPrintsNothingOnStdout() throws Exception {
        Run run = serve(INIT, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"greet\",\"arguments\":{}}}",
                "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"greet\",\"arguments\":{\"name\":\"Ada\"}}}");
        assertThat(run.stdout()).hasSize(3);
        for (String line : run.stdout()) {
            assertThat(Json.mapper().readTree(line).get("jsonrpc").stringValue()).isEqualTo("2.0");
        }
        // The two calls run side by side: their answers come in either order.
        assertThat(run.stdout()).anySatisfy(line -> assertThat(line).contains("\"id\":2")
                .contains("VALIDATION_ERROR").contains("/name: is required"));
        assertThat(run.stdout()).anySatisfy(line -> assertThat(line).contains("\"id\":3").contains("Hello, Ada!"));
    }

    @Test
    void malformedAndOversizedLinesGetErrorsAndServingGoesOn() throws Exception {
        Run run = serve(INIT, "{broken", "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"" + "x".repeat(10_000) + "\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"ping\"}");
        assertThat(run.stdout()).hasSize(4);
        JsonNode parseError = Json.mapper().readTree(run.stdout().get(1));
        JsonNode tooLarge = Json.mapper().readTree(run.stdout().get(2));
        JsonNode ping = Json.mapper().readTree(run.stdout().get(3));
        assertThat(parseError.get("error").get("code").asInt()).isEqualTo(-32700);
        assertThat(tooLarge.get("error").get("code").asInt()).isEqualTo(-32600);
        assertThat(tooLarge.get("error").get("message").stringValue()).contains("4096 bytes");
        assertThat(ping.get("id").asInt()).isEqualTo(4);
    }

    @Test
    void endOfInputShutsDownCleanly() throws Exception {
        Run run = serve(INIT);
        assertThat(run.exitCode()).isZero();
        assertThat(run.stdout()).hasSize(1);
    }
}
