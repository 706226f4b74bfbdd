package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;

/**
 * {@code warden gateway} with API keys alone ({@code auth.apiKeys.file}), the keys minted by
 * {@code warden keys new} as an operator would: a key works in either header, its caller is
 * {@code key:NAME} in the audit, a wrong key cannot be told from an unknown one, and a key added to
 * the file works without a restart.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GatewayApiKeysEndToEndTest {

    /** A minted key: the secret (stdout) and its keys-file entry (stderr). */
    record Minted(String key, String entry) {
    }

    Path keysFile;
    Minted ciBot;
    HttpGateway gateway;

    static Minted mint(String name) throws Exception {
        return mint(name, "mcp:tools");
    }

    /** A key with these scopes, minted as an operator mints one. */
    static Minted mint(String name, String... scopes) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of(Processes.LAUNCHER.toString(), "keys", "new",
                "--name", name));
        for (String scope : scopes) {
            command.addAll(List.of("--scope", scope));
        }
        Processes.Result result = Processes.run(command);
        assertThat(result.exitCode()).as(result.stderr()).isZero();
        String key = result.stdout().strip();
        assertThat(key).startsWith("wdn_").doesNotContain("\n");
        String entry = result.stderr().lines().filter(l -> l.strip().startsWith("- {\"name\":\"" + name + "\","))
                .findFirst().orElseThrow(() -> new AssertionError("no keys-file entry in " + result.stderr()));
        assertThat(entry).doesNotContain(key);
        return new Minted(key, entry);
    }

    /** Replaced whole (a rename), so the gateway never reads half a file. */
    void writeKeys(Minted... keys) throws Exception {
        StringBuilder document = new StringBuilder("keys:\n");
        for (Minted k : keys) {
            document.append(k.entry()).append('\n');
        }
        Path next = keysFile.resolveSibling("api-keys.yaml.next");
        Files.writeString(next, document);
        Files.move(next, keysFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    @BeforeAll
    void start() throws Exception {
        keysFile = Files.createTempDirectory("warden-keys-e2e").resolve("api-keys.yaml");
        ciBot = mint("ci-bot");
        writeKeys(ciBot);
        gateway = HttpGateway.start("""
                http: { port: 0 }
                auth:
                  scopes: [mcp:tools]
                  apiKeys:
                    file: %s
                upstreams:
                  everything:
                    command: [%s, %s, stdio]
                """.formatted(keysFile, Processes.NODE, WardenClientWithServerEverythingTest.SERVER), 1);
    }

    @AfterAll
    void stop() throws Exception {
        if (gateway != null) {
            gateway.stop();
        }
    }

    private String echo(Map<String, String> credentials, String message) throws Exception {
        String session = AuthedHttp.initialize(gateway.url(), credentials, "keys");
        return AuthedHttp.call(gateway.url(), credentials, session, 2, "echo", "{\"message\":\"" + message + "\"}")
                .at("/result/content/0/text").asString();
    }

    @Test
    void aKeyInXApiKeyIsServed() throws Exception {
        assertThat(echo(AuthedHttp.apiKey(ciBot.key()), "by header")).isEqualTo("Echo: by header");
    }

    @Test
    void aKeyAsABearerTokenIsServed() throws Exception {
        assertThat(echo(AuthedHttp.bearer(ciBot.key()), "by bearer")).isEqualTo("Echo: by bearer");
    }

    @Test
    void theAuditRecordOfAKeysCallNamesTheKey() throws Exception {
        echo(AuthedHttp.apiKey(ciBot.key()), "audited");

        JsonNode record = AuthedHttp.auditRecord(gateway.dataDir(),
                r -> r.path("tool").asString("").equals("echo") && r.has("subject"));
        assertThat(record.get("subject").asString()).isEqualTo("key:ci-bot");
        assertThat(record.get("outcome").asString()).isEqualTo("OK");
        assertThat(Files.readString(gateway.peer().stderr) + AuthedHttp.audit(gateway.dataDir()))
                .doesNotContain(ciBot.key());
    }

    @Test
    void anUnknownKeyAndAWrongKeyGetTheSameAnswerButTheRef() throws Exception {
        String unknown = mint("nobody").key();
        int last = ciBot.key().length() - 1;
        String wrong = ciBot.key().substring(0, last) + (ciBot.key().charAt(last) == 'A' ? 'B' : 'A');

        HttpResponse<String> forUnknown = AuthedHttp.post(gateway.url(), AuthedHttp.bearer(unknown), Optional.empty(),
                AuthedHttp.initializeBody("guess"));
        HttpResponse<String> forWrong = AuthedHttp.post(gateway.url(), AuthedHttp.bearer(wrong), Optional.empty(),
                AuthedHttp.initializeBody("guess"));

        assertThat(forUnknown.statusCode()).isEqualTo(401);
        assertThat(forUnknown.headers().firstValue("WWW-Authenticate").orElseThrow())
                .startsWith("Bearer error=\"invalid_token\"");
        assertThat(withoutDateAndRef(forWrong)).isEqualTo(withoutDateAndRef(forUnknown));
        assertThat(forUnknown.body() + forWrong.body() + forUnknown.headers().map() + forWrong.headers().map())
                .doesNotContain(unknown, wrong, "ci-bot");
        // Even the ref is the same (one incident, one reason): nothing tells a near miss from a guess.
        assertThat(AuthedHttp.incident(gateway.dataDir(),
                Json.mapper().readTree(forWrong.body()).at("/error/data/ref").asString())).contains("not a known API key");
    }

    private static String withoutDateAndRef(HttpResponse<String> response) {
        Map<String, List<String>> headers = new TreeMap<>(response.headers().map());
        headers.keySet().removeIf(name -> name.equalsIgnoreCase("date"));
        return response.statusCode() + " " + headers + " " + response.body().replaceAll("ref_[a-z0-9]{16}", "ref_");
    }

    @Test
    void aKeyAddedToTheFileWorksWithoutARestart() throws Exception {
        Minted deployBot = mint("deploy-bot");
        HttpResponse<String> before = AuthedHttp.post(gateway.url(), AuthedHttp.apiKey(deployBot.key()),
                Optional.empty(), AuthedHttp.initializeBody("deploy"));
        assertThat(before.statusCode()).isEqualTo(401);

        writeKeys(ciBot, deployBot);

        // The gateway looks at the file at most once a second (its clock): a bounded retry.
        long deadline = System.nanoTime() + AuthedHttp.PATIENCE.toNanos();
        HttpResponse<String> after;
        do {
            after = AuthedHttp.post(gateway.url(), AuthedHttp.apiKey(deployBot.key()), Optional.empty(),
                    AuthedHttp.initializeBody("deploy"));
        } while (after.statusCode() == 401 && System.nanoTime() < deadline && pause());
        assertThat(after.statusCode()).as(after.body()).isEqualTo(200);
        assertThat(echo(AuthedHttp.apiKey(ciBot.key()), "still")).isEqualTo("Echo: still");
        assertThat(echo(AuthedHttp.apiKey(deployBot.key()), "new")).isEqualTo("Echo: new");
    }

    private static boolean pause() throws InterruptedException {
        Thread.sleep(100);
        return true;
    }
}
