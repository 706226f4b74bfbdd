package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;

/**
 * The real {@code warden gateway}, with its default breaker, in front of server-everything and the
 * hostile server, and {@code warden wrap} in front of server-everything: a model's ordinary mistakes, 200 in a row, pause nothing and the next good call is
 * served; a server that stops answering (the hostile server's hang) still pauses and recovers.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BreakerHealthOnlyEndToEndTest {

    static final Duration GUARD = Duration.ofSeconds(60);
    /**
     * What models send by mistake, each answered by server-everything itself (an isError result or
     * a validation error): wrong argument types, a missing required argument, a number out of its
     * range, a URL scheme the tool refuses, an output type it does not know.
     */
    static final List<String[]> MISTAKES = List.of(
            new String[] {"get-sum", "{\"a\":\"one\",\"b\":2}"},
            new String[] {"echo", "{}"},
            new String[] {"get-sum", "{\"a\":1}"},
            new String[] {"get-resource-reference", "{\"resourceType\":\"text\",\"resourceId\":1.5}"},
            new String[] {"gzip-file-as-resource", "{\"name\":\"a.gz\",\"data\":\"ftp://files.example/a\"}"},
            new String[] {"gzip-file-as-resource",
                    "{\"name\":\"a.gz\",\"data\":\"data:text/plain,hi\",\"outputType\":\"zip\"}"},
            new String[] {"get-resource-reference", "{\"resourceType\":\"video\"}"});

    LinePeer gateway;
    int nextId = 10;

    @BeforeAll
    void start() throws Exception {
        Path dir = Files.createTempDirectory("warden-breaker-health");
        Path config = dir.resolve("warden.yaml");
        Files.writeString(config, """
                upstreams:
                  everything:
                    command: [%s, %s, stdio]
                  hostile:
                    command: [%s, %s]
                    toolTimeouts: { sleep: 1s }
                    breaker: { failureRate: 50, minimumCalls: 2, window: 2, openFor: 2s }
                """.formatted(Processes.NODE, WardenClientWithServerEverythingTest.SERVER, Processes.NODE,
                Processes.NODE_DIR.resolve("hostile-server.mjs")));
        gateway = new LinePeer(List.of(Processes.LAUNCHER.toString(), "gateway", "--config", config.toString(),
                "--data-dir", dir.resolve("gateway").toString()));
        gateway.call(1, "initialize", "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
                + "\"clientInfo\":{\"name\":\"e2e\",\"version\":\"1\"}}", GUARD);
        gateway.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
        gateway.call(2, "tools/list", "{}", GUARD);
    }

    @AfterAll
    void stop() throws Exception {
        if (gateway != null) {
            gateway.close();
        }
    }

    private JsonNode call(String tool, String arguments) throws Exception {
        return call(gateway, tool, arguments);
    }

    private JsonNode call(LinePeer peer, String tool, String arguments) throws Exception {
        return Json.mapper().readTree(peer.call(nextId++, "tools/call", "{\"name\":\"" + tool + "\",\"arguments\":"
                + arguments + "}", GUARD));
    }

    /** The failure's text, whether the gateway gave it as an isError result or as a JSON-RPC error. */
    private static String failure(JsonNode answer) {
        return answer.has("error") ? answer.get("error").toString() : answer.at("/result/content/0/text").asString();
    }

    @Test
    void twoHundredMistakesInARowPauseNothingAndTheGoodCallIsServed() throws Exception {
        twoHundredMistakesThenGoodCalls(gateway, "everything__");
    }

    @Test
    void throughWrapTooTwoHundredMistakesPauseNothing() throws Exception {
        Path dir = Files.createTempDirectory("warden-breaker-wrap");
        try (LinePeer wrap = new LinePeer(List.of(Processes.LAUNCHER.toString(), "wrap", "--data-dir", dir.toString(),
                "--", Processes.NODE, WardenClientWithServerEverythingTest.SERVER, "stdio"))) {
            wrap.call(1, "initialize", "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
                    + "\"clientInfo\":{\"name\":\"e2e\",\"version\":\"1\"}}", GUARD);
            wrap.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
            twoHundredMistakesThenGoodCalls(wrap, "");
        }
    }

    private void twoHundredMistakesThenGoodCalls(LinePeer peer, String prefix) throws Exception {
        for (int i = 0; i < 200; i++) {
            String[] mistake = MISTAKES.get(i % MISTAKES.size());
            JsonNode answer = call(peer, prefix + mistake[0], mistake[1]);
            assertThat(answer.has("error") || answer.at("/result/isError").asBoolean(false))
                    .as("call %d %s was refused: %s", i, mistake[0], answer).isTrue();
            assertThat(failure(answer)).as("call %d %s", i, mistake[0]).doesNotContain("paused");
        }
        JsonNode sum = call(peer, prefix + "get-sum", "{\"a\":2,\"b\":3}");
        assertThat(sum.at("/result/isError").asBoolean(false)).as(sum.toString()).isFalse();
        assertThat(sum.at("/result/content/0/text").asString()).contains("5");
        JsonNode echo = call(peer, prefix + "echo", "{\"message\":\"still here\"}");
        assertThat(echo.at("/result/content/0/text").asString()).as(echo.toString()).contains("still here");
    }

    @Test
    void aHangingServerStillPausesAndRecovers() throws Exception {
        JsonNode open = null;
        for (int i = 0; i < 6 && open == null; i++) {
            JsonNode e = Json.mapper().readTree(failure(call("hostile__sleep", "{\"ms\":30000}"))).get("error");
            if (e.get("message").asString().contains("paused")) {
                open = e;
            } else {
                assertThat(e.get("code").asString()).isEqualTo("TIMEOUT");
            }
        }
        assertThat(open).as("the breaker opened").isNotNull();
        assertThat(open.get("code").asString()).isEqualTo("UPSTREAM_ERROR");
        assertThat(open.get("retryAfterMs").asLong()).isBetween(1L, 2000L);
        assertThat(call("everything__echo", "{\"message\":\"other\"}").at("/result/content/0/text").asString())
                .as("the other server is served").contains("other");

        // A hang guard, not a speed check: once the open time is over, a call may try and closes it.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        JsonNode echo;
        do {
            Thread.sleep(200);
            echo = call("hostile__echo", "{\"message\":\"back\"}");
        } while (echo.at("/result/isError").asBoolean(false) && System.nanoTime() < deadline);
        assertThat(echo.at("/result/content/0/text").asString()).isEqualTo("Echo: back");
    }
}
