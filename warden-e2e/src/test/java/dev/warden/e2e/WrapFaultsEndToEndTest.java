package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * {@code warden wrap} in front of a server that crashes mid-call, hangs, writes garbage, answers
 * with a wrong id or sends a 10 MB result: the gateway stays up and every request gets exactly one
 * answer, with its own id.
 */
class WrapFaultsEndToEndTest {

    static final Duration GUARD = WrapLeaksEndToEndTest.GUARD;

    /**
     * Wrap with a call timeout of 30 s: what a test does not time out on must not time out on a
     * loaded machine either (a node restart, a 10 MB line read by a cold JVM).
     */
    private static LinePeer started(String... options) throws Exception {
        return startedWithTimeout("30s", options);
    }

    /** Wrap with the call timeout the timeout tests wait out. */
    private static LinePeer startedWithTimeout(String timeout, String... options) throws Exception {
        Path dataDir = Files.createTempDirectory("warden-wrap-faults");
        List<String> all = new java.util.ArrayList<>(List.of("--timeout", timeout));
        all.addAll(List.of(options));
        LinePeer peer = new LinePeer(WrapLeaksEndToEndTest.wrap(dataDir, all.toArray(String[]::new)));
        WrapLeaksEndToEndTest.initialize(peer);
        return peer;
    }

    private static JsonNode call(LinePeer peer, int id, String tool) throws Exception {
        return Json.mapper().readTree(peer.call(id, "tools/call", "{\"name\":\"" + tool + "\",\"arguments\":"
                + "{\"message\":\"m" + id + "\"}}", GUARD));
    }

    private static String codeOf(JsonNode answer) {
        return WrapLeaksEndToEndTest.codeOf(answer.toString());
    }

    @Test
    void aServerThatCrashesMidCallIsAnUpstreamErrorAndIsStartedAgainForTheNextCall() throws Exception {
        try (LinePeer peer = started()) {
            JsonNode crashed = call(peer, 10, "crash");
            assertThat(crashed.at("/result/isError").asBoolean()).isTrue();
            assertThat(codeOf(crashed)).isEqualTo("UPSTREAM_ERROR");
            assertThat(call(peer, 11, "echo").at("/result/content/0/text").asString()).isEqualTo("echo: m11");
            assertThat(peer.alive()).isTrue();
        }
    }

    @Test
    void aServerThatHangsIsATimeoutAndTheNextCallIsServed() throws Exception {
        try (LinePeer peer = startedWithTimeout("2s")) {
            assertThat(codeOf(call(peer, 10, "hang"))).isEqualTo("TIMEOUT");
            assertThat(call(peer, 11, "echo").at("/result/content/0/text").asString()).isEqualTo("echo: m11");
        }
    }

    @Test
    void garbageOnTheServersStdoutIsSkipped() throws Exception {
        try (LinePeer peer = started()) {
            assertThat(call(peer, 10, "garbage").at("/result/content/0/text").asString())
                    .isEqualTo("answered after garbage");
        }
    }

    @Test
    void anAnswerWithAWrongIdIsDroppedAndTheCallTimesOut() throws Exception {
        try (LinePeer peer = startedWithTimeout("2s")) {
            JsonNode answer = call(peer, 10, "wrong_id");
            assertThat(codeOf(answer)).isEqualTo("TIMEOUT");
            assertThat(answer.toString()).doesNotContain("an answer to nobody");
            assertThat(peer.notifications).noneMatch(l -> l.contains("987654"));
        }
    }

    @Test
    void aTenMegabyteResultPassesByDefault() throws Exception {
        try (LinePeer peer = started()) {
            JsonNode answer = call(peer, 10, "huge");
            assertThat(answer.at("/result/content/0/text").asString()).hasSize(10 * 1024 * 1024);
        }
    }

    @Test
    void aResultOverTheSetLimitIsRefusedAtOnceWithItsOwnAnswerNamingTheSetting() throws Exception {
        try (LinePeer peer = started("--max-message-bytes", "4194304")) {
            JsonNode answer = call(peer, 10, "huge");
            assertThat(answer.get("id").asInt()).isEqualTo(10);
            assertThat(codeOf(answer)).isEqualTo("UPSTREAM_ERROR");
            assertThat(answer.toString()).contains("larger than the gateway accepts").contains("--max-message-bytes")
                    .contains("4194304").hasSizeLessThan(10_000);
            assertThat(call(peer, 11, "echo").at("/result/content/0/text").asString()).isEqualTo("echo: m11");
        }
    }

    @Test
    void aServerThatCannotStartFailsInitializeAfterOneTryAndItsLastStderrLinesAreLogged() throws Exception {
        Path dataDir = Files.createTempDirectory("warden-wrap-faults");
        Path launches = dataDir.resolve("launches");
        try (LinePeer peer = new LinePeer(List.of(Processes.LAUNCHER.toString(), "wrap", "--data-dir",
                dataDir.toString(), "sh", "-c", "echo started >>" + launches
                        + "; echo 'Error: None of the specified directories are accessible' >&2; exit 1"))) {
            JsonNode answer = Json.mapper().readTree(peer.call(1, "initialize", "{\"protocolVersion\":\"2025-11-25\","
                    + "\"capabilities\":{},\"clientInfo\":{\"name\":\"e2e\",\"version\":\"1\"}}", GUARD));

            assertThat(answer.at("/error/data/code").asString()).isEqualTo("UPSTREAM_ERROR");
            assertThat(answer.at("/error/message").asString()).isEqualTo("The upstream server could not be started.");
            assertThat(Files.readAllLines(launches)).hasSize(1);
            String log = "";
            for (int i = 0; i < 3000 && !log.contains("accessible"); i++) {
                Thread.sleep(20);
                log = Files.readString(peer.stderr);
            }
            assertThat(log).contains("upstream sh exited with code 1; its last lines on stderr:\n"
                    + "  Error: None of the specified directories are accessible");
        }
    }
}
