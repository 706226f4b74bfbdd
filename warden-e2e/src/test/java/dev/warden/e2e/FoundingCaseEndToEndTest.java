package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

/**
 * The founding case (ash-project/ash_ai#158): a JSON:API validation error whose fix is a JSON pointer
 * ({@code /data/attributes/email}) keeps its pointer and message in every shape a server answers it in
 * ({@code founding-case-server.mjs}: a "pointer: message" line, the error document as text, JSON-RPC
 * error data, the document encoded twice, the real ajv's errors), with and without the caller's
 * arguments, through {@code warden wrap}, {@code warden gateway} over HTTP (the official TypeScript
 * SDK client) and {@code warden sanitize}. Asserted on what the client (or the shell) receives.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FoundingCaseEndToEndTest {

    static final Duration GUARD = Duration.ofSeconds(60);
    static final String ARGUMENTS = "{\"data\":{\"attributes\":{\"email\":\"not-an-email\"},"
            + "\"relationships\":{\"personas\":[]}}}";
    Path dataDir;
    LinePeer peer;
    int nextId = 10;
    /** What the TypeScript SDK's client received from {@code warden gateway} over HTTP, per tool and arguments. */
    JsonNode viaGateway;
    /** The gateway's data directory, where its incidents stay after it stops. */
    Path gatewayData;

    @BeforeAll
    void start() throws Exception {
        dataDir = Files.createTempDirectory("warden-founding-case");
        peer = new LinePeer(List.of(Processes.LAUNCHER.toString(), "wrap", "--data-dir", dataDir.toString(), "--",
                Processes.NODE, Processes.NODE_DIR.resolve("founding-case-server.mjs").toString()));
        peer.call(1, "initialize", "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
                + "\"clientInfo\":{\"name\":\"e2e\",\"version\":\"1\"}}", GUARD);
        peer.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
    }

    /**
     * The same server behind {@code warden gateway} over Streamable HTTP, every shape called once
     * with no arguments and once with the caller's document by the official TypeScript SDK client.
     */
    @BeforeAll
    void startGateway() throws Exception {
        HttpGateway gateway = HttpGateway.start("""
                http: { port: 0 }
                upstreams:
                  founding:
                    command: [%s, %s]
                """.formatted(Processes.NODE, Processes.NODE_DIR.resolve("founding-case-server.mjs")), 1);
        try {
            List<String> command = new ArrayList<>(Processes.node("founding-case-client.mjs", gateway.url(),
                    ARGUMENTS));
            command.addAll(shapes().map(a -> (String) a.get()[0]).distinct().toList());
            Processes.Result result = Processes.run(command);
            assertThat(result.exitCode()).as(result.stderr()).isZero();
            viaGateway = Json.mapper().readTree(result.stdout());
            gatewayData = gateway.dataDir();
        } finally {
            gateway.stop();
        }
    }

    @AfterAll
    void stop() throws Exception {
        peer.close();
    }

    /** Each shape (the server's tool), with no arguments or the caller's document, and what must reach the client. */
    static Stream<Arguments> shapes() {
        return Stream.of(
            Arguments.of("text", "{}", "/data/attributes/email", "must be a valid email"),
            Arguments.of("text", "given", "/data/attributes/email", "must be a valid email"),
            Arguments.of("jsonapi_document", "{}", "/data/relationships/personas", "At least one persona is required"),
            Arguments.of("jsonapi_document", "given", "/data/attributes/email", "must be a valid email"),
            Arguments.of("jsonrpc_data_errors", "{}", "/data/attributes/email", "must be a valid email"),
            Arguments.of("jsonrpc_data_errors", "given", "/data/relationships/personas", "At least one persona is required"),
            Arguments.of("double_encoded", "{}", "/data/relationships/personas", "At least one persona is required"),
            Arguments.of("double_encoded", "given", "/data/attributes/email", "must be a valid email"),
            Arguments.of("ajv", "given", "/data/attributes/email", "must match format"),
            Arguments.of("ajv", "{}", "must have required property", "must have required property"));
    }

    @ParameterizedTest(name = "{0} with arguments {1}")
    @MethodSource("shapes")
    void throughWrapThePointerAndItsMessageReachTheClient(String tool, String arguments, String pointer,
            String message) throws Exception {
        String args = arguments.equals("given") ? ARGUMENTS : "{}";
        String line = peer.call(nextId++, "tools/call", "{\"name\":\"" + tool + "\",\"arguments\":" + args + "}",
                GUARD);
        assertThat(line).contains(pointer).contains(message).doesNotContain("[redacted:");
    }

    @ParameterizedTest(name = "{0} with arguments {1}")
    @MethodSource("shapes")
    void throughTheGatewayOverHttpThePointerAndItsMessageReachTheClient(String tool, String arguments,
            String pointer, String message) {
        JsonNode received = viaGateway.path(tool + " " + arguments);
        assertThat(received.toString()).contains(pointer).contains(message).doesNotContain("[redacted:");
    }

    @ParameterizedTest(name = "{0} with arguments {1}")
    @MethodSource("shapes")
    void throughTheGatewayTheIncidentBehindTheRefKeepsTheServersOwnAnswer(String tool, String arguments,
            String pointer, String message) throws Exception {
        JsonNode received = viaGateway.path(tool + " " + arguments);
        String ref = received.path("ok").asBoolean() ? received.at("/value/structuredContent/error/ref").asString()
                : received.at("/error/data/ref").asString();
        Processes.Result shown = Processes.run(List.of(Processes.LAUNCHER.toString(), "incidents", "show", "--json",
                "--data-dir", gatewayData.toString(), ref));
        assertThat(shown.exitCode()).as(shown.stderr()).isZero();
        String original = Json.mapper().readTree(shown.stdout()).path("original").asString();
        // What the server said, whole: the client got it rewritten into Warden's error.
        assertThat(original).contains(pointer).contains(message);
        if (!tool.equals("text") && !tool.equals("ajv")) {
            assertThat(original).contains("Invalid Attribute");
        }
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
