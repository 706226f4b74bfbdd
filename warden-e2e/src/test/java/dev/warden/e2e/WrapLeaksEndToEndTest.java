package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.error.Ref;
import dev.warden.core.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;

/**
 * {@code warden wrap} in front of a deliberately leaky server ({@code leaky-server.mjs}: failures
 * in the styles of Node, Python, Java and Go carrying stack traces, paths, SQL, credentials,
 * internal addresses and an injection). Every assertion is on the raw line the client receives;
 * every ref must resolve, with {@code warden incidents show}, to the original.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class WrapLeaksEndToEndTest {

    static final Duration GUARD = Duration.ofSeconds(60);
    Path dataDir;
    LinePeer peer;
    int nextId = 10;

    static List<String> wrap(Path dataDir, String... extra) {
        List<String> command = new ArrayList<>(List.of(Processes.LAUNCHER.toString(), "wrap", "--data-dir",
                dataDir.toString()));
        command.addAll(List.of(extra));
        command.addAll(List.of("--", Processes.NODE, Processes.NODE_DIR.resolve("leaky-server.mjs").toString()));
        return command;
    }

    static void initialize(LinePeer peer) throws Exception {
        String init = peer.call(1, "initialize", "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
                + "\"clientInfo\":{\"name\":\"e2e\",\"version\":\"1\"}}", GUARD);
        assertThat(Json.mapper().readTree(init).at("/result/serverInfo/name").asString()).isEqualTo("leaky");
        peer.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
    }

    @BeforeAll
    void start() throws Exception {
        dataDir = Files.createTempDirectory("warden-wrap-e2e");
        peer = new LinePeer(wrap(dataDir, "--timeout", "3s"));
        initialize(peer);
    }

    @AfterAll
    void stop() throws Exception {
        peer.close();
    }

    private String callTool(String name) throws Exception {
        return peer.call(nextId++, "tools/call", "{\"name\":\"" + name + "\",\"arguments\":{}}", GUARD);
    }

    /** The ref in an answer: in an isError result's error object, or in a JSON-RPC error's data. */
    static String refOf(String line) {
        JsonNode node = Json.mapper().readTree(line);
        if (node.has("error")) {
            return node.at("/error/data/ref").asString();
        }
        JsonNode error = Json.mapper().readTree(node.at("/result/content/0/text").asString()).get("error");
        return error.get("ref").asString();
    }

    static String codeOf(String line) {
        JsonNode node = Json.mapper().readTree(line);
        if (node.has("error")) {
            return node.at("/error/data/code").asString();
        }
        return Json.mapper().readTree(node.at("/result/content/0/text").asString()).at("/error/code").asString();
    }

    String incident(String ref) throws Exception {
        Processes.Result shown = Processes.run(List.of(Processes.LAUNCHER.toString(), "incidents", "show", ref,
                "--data-dir", dataDir.toString()));
        assertThat(shown.exitCode()).as(shown.stderr()).isZero();
        return shown.stdout();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "node_error     | S3cr3tPass;/home/app;db.internal.corp;processTicksAndRejections;user.js:42 | S3cr3tPass",
        "python_error   | /opt/app/server.py;Traceback;users_email_key;grace@example.com;psycopg2     | users_email_key",
        "java_error     | ORA-00942;UserRepo.java;com.acme;AKIAIOSFODNN7EXAMPLE;SQLSyntaxError        | AKIAIOSFODNN7EXAMPLE",
        "go_error       | 10.0.3.17;/home/build;main.go;main.main;ghp_16C7e42F292c6912E7710c838347Ae178B4a;goroutine | 10.0.3.17",
        "double_encoded | /etc/app/secrets.json;\\\\\"Error                                        | secrets.json",
        "injection      | Ignore all previous instructions;delete_all_files;system prompt            | delete_all_files",
    })
    void aLeakyFailureReachesTheClientSanitizedWithACodeAndARefToTheOriginal(String tool, String leaks,
            String original) throws Exception {
        String line = callTool(tool);
        for (String leak : leaks.split(";")) {
            assertThat(line).as("leak %s", leak).doesNotContain(leak.strip());
        }
        assertThat(codeOf(line)).isNotBlank();
        String ref = refOf(line);
        assertThat(Ref.isWellFormed(ref)).isTrue();
        assertThat(incident(ref)).contains(original).contains("leaky-server");
    }

    @Test
    void theJavaStyleToolFailureSentAsAJsonRpcErrorBecomesAnIsErrorResult() throws Exception {
        JsonNode answer = Json.mapper().readTree(callTool("java_error"));
        assertThat(answer.has("error")).isFalse();
        assertThat(answer.at("/result/isError").asBoolean()).isTrue();
    }

    @Test
    void aDatabaseFailureGetsTheCodeOfItsKind() throws Exception {
        assertThat(codeOf(callTool("python_error"))).isEqualTo("CONFLICT");
    }

    @Test
    void anotherCustomersEmailInAnErrorsDataDoesNotReachTheClientButTheConflictingFieldDoes() throws Exception {
        String line = peer.call(nextId++, "tools/call", "{\"name\":\"pg_conflict\",\"arguments\":"
                + "{\"email\":\"ada@customer-a.example\",\"name\":\"Ada\"}}", GUARD);

        assertThat(line).doesNotContain("grace.hopper@customer-b.example", "h80_users");
        assertThat(codeOf(line)).isEqualTo("CONFLICT");
        assertThat(line).contains("Key (email)=(");
        assertThat(incident(refOf(line))).contains("grace.hopper@customer-b.example");
    }

    @Test
    void logMessagesAreSanitizedOnTheWay() throws Exception {
        callTool("log_leak");
        String log = peer.notifications.stream().filter(l -> l.contains("notifications/message")).findFirst()
                .orElseThrow();
        assertThat(log).doesNotContain("hunter2").doesNotContain("192.168.1.20").doesNotContain("/srv/app");
    }

    @Test
    void credentialsInASuccessfulResultAreRedacted() throws Exception {
        String line = callTool("success_with_secret");
        assertThat(line).doesNotContain("sk_live_51H8xYzAbCdEfGhIjKlMnOpQr").contains("Deployed.");
        assertThat(Json.mapper().readTree(line).at("/result/isError").asBoolean(false)).isFalse();
    }

    @Test
    void anUnknownToolIsNotFoundWithoutEchoingTheName() throws Exception {
        String line = callTool("drop_tables_probe_tool");
        JsonNode answer = Json.mapper().readTree(line);
        // In the server's own shape: a -32602 error, or an isError result (never made a protocol error).
        if (answer.has("error")) {
            assertThat(answer.at("/error/code").asInt()).isEqualTo(-32602);
        } else {
            assertThat(answer.at("/result/isError").asBoolean()).isTrue();
            assertThat(Json.mapper().readTree(answer.at("/result/content/0/text").asString()).at("/error/code")
                    .asString()).isEqualTo("NOT_FOUND");
        }
        assertThat(line).doesNotContain("drop_tables_probe_tool");
    }
}
