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
 * {@code warden gateway} over stdio in front of a hanging stdio upstream (the leaky server) and a
 * Streamable HTTP upstream ({@code warden demo --http}): the hanging one's breaker opens, answers
 * for it with {@code retryAfterMs} while the other is served, and recovers.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GatewayBreakerEndToEndTest {

    static final Duration GUARD = Duration.ofSeconds(60);
    LinePeer demo;
    LinePeer gateway;
    int nextId = 10;

    @BeforeAll
    void start() throws Exception {
        Path dir = Files.createTempDirectory("warden-gateway-breaker");
        demo = new LinePeer(List.of(Processes.LAUNCHER.toString(), "demo", "--http", "0", "--data-dir",
                dir.resolve("demo").toString()));
        String serving = demo.nextLine(GUARD);
        String url = serving.substring(serving.indexOf("http://")).strip();
        Path config = dir.resolve("warden.yaml");
        Files.writeString(config, """
                upstreams:
                  leaky:
                    command: [%s, %s]
                    toolTimeouts: { hang: 1s }
                    breaker: { failureRate: 50, minimumCalls: 2, window: 2, openFor: 2s }
                  demo:
                    url: %s
                """.formatted(Processes.NODE, Processes.NODE_DIR.resolve("leaky-server.mjs"), url));
        gateway = new LinePeer(List.of(Processes.LAUNCHER.toString(), "gateway", "--config", config.toString(),
                "--data-dir", dir.resolve("gateway").toString()));
        String init = gateway.call(1, "initialize", "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
                + "\"clientInfo\":{\"name\":\"e2e\",\"version\":\"1\"}}", GUARD);
        assertThat(Json.mapper().readTree(init).at("/result/serverInfo/name").asString()).isEqualTo("warden-gateway");
        gateway.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
        gateway.call(2, "tools/list", "{}", GUARD);
    }

    @AfterAll
    void stop() throws Exception {
        if (gateway != null) {
            gateway.close();
        }
        if (demo != null) {
            demo.destroy();
        }
    }

    private JsonNode call(String tool, String arguments) throws Exception {
        return Json.mapper().readTree(gateway.call(nextId++, "tools/call", "{\"name\":\"" + tool + "\",\"arguments\":"
                + arguments + "}", GUARD));
    }

    private static JsonNode error(JsonNode answer) {
        assertThat(answer.at("/result/isError").asBoolean()).as(answer.toString()).isTrue();
        return Json.mapper().readTree(answer.at("/result/content/0/text").asString()).get("error");
    }

    @Test
    void aHangingUpstreamsBreakerOpensKeepsTheOtherServedAndRecovers() throws Exception {
        JsonNode open = null;
        for (int i = 0; i < 6 && open == null; i++) {
            JsonNode e = error(call("leaky__hang", "{}"));
            if (e.get("code").asString().equals("UPSTREAM_ERROR")) {
                open = e;
            } else {
                assertThat(e.get("code").asString()).isEqualTo("TIMEOUT");
            }
        }
        assertThat(open).as("the breaker opened").isNotNull();
        assertThat(open.get("retryAfterMs").asLong()).isBetween(1L, 2000L);
        assertThat(open.get("message").asString()).contains("paused");

        // The HTTP upstream is its own: served while the other's breaker is open, its codes kept.
        assertThat(call("demo__fetch_document", "{\"id\":\"doc-1\"}").at("/result/content/0/text").asString())
                .startsWith("Quarterly report");
        assertThat(error(call("demo__fetch_document", "{\"id\":\"doc-2\"}")).get("code").asString())
                .isEqualTo("PERMISSION_DENIED");

        // A hang guard, not a speed check: once open time is over, a call may try and closes the breaker.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        JsonNode echo;
        do {
            Thread.sleep(200);
            echo = call("leaky__echo", "{\"message\":\"back\"}");
        } while (echo.at("/result/isError").asBoolean(false) && System.nanoTime() < deadline);
        assertThat(echo.at("/result/content/0/text").asString()).isEqualTo("echo: back");
    }
}
