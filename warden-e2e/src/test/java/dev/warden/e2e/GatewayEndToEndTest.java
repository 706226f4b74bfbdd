package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;

/**
 * {@code warden gateway --config warden.yaml} serving two stdio upstreams (server-everything and the
 * leaky server) over Streamable HTTP, driven by the TypeScript SDK client.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GatewayEndToEndTest {

    Path dataDir;
    LinePeer gateway;
    JsonNode run;

    @BeforeAll
    void start() throws Exception {
        HttpGateway started = HttpGateway.start("""
                http: { port: 0 }
                upstreams:
                  everything:
                    command: [%s, %s, stdio]
                    tools: { deny: [get-env] }
                  leaky:
                    command: [%s, %s]
                    toolTimeouts: { hang: 2s }
                """.formatted(Processes.NODE, WardenClientWithServerEverythingTest.SERVER, Processes.NODE,
                Processes.NODE_DIR.resolve("leaky-server.mjs")), 2);
        gateway = started.peer();
        dataDir = started.dataDir();
        String url = started.url();
        Processes.Result result = Processes.run(Processes.node("gateway-client.mjs", url));
        assertThat(result.exitCode()).as(result.stderr()).isZero();
        run = Json.mapper().readTree(result.stdout());
    }

    @AfterAll
    void stop() throws Exception {
        if (gateway != null) {
            gateway.destroy();
        }
    }

    @Test
    void theToolsOfBothUpstreamsAreListedUnderTheirNamespaces() {
        List<String> names = run.at("/listTools/value/tools").valueStream().map(t -> t.get("name").asString()).toList();
        assertThat(names).contains("everything__echo", "everything__get-sum", "leaky__node_error", "leaky__echo");
        assertThat(names).allMatch(n -> n.startsWith("everything__") || n.startsWith("leaky__"));
    }

    @Test
    void aDeniedToolIsInvisibleAndCallingItIsLikeCallingNothing() {
        List<String> names = run.at("/listTools/value/tools").valueStream().map(t -> t.get("name").asString()).toList();
        assertThat(names).doesNotContain("everything__get-env");
        assertThat(run.at("/denied/error/code").asInt()).isEqualTo(-32602);
        assertThat(run.at("/denied/error/message").asString())
                .isEqualTo(run.at("/unknownUpstream/error/message").asString());
        assertThat(run.get("denied").toString()).doesNotContain("get-env");
    }

    @Test
    void callsReachTheRightUpstream() {
        assertThat(run.at("/echo/value/content/0/text").asString()).isEqualTo("Echo: through the gateway");
        assertThat(run.at("/leakyEcho/value/content/0/text").asString()).isEqualTo("echo: second upstream");
        assertThat(run.at("/unprefixed/error/code").asInt()).isEqualTo(-32602);
    }

    @Test
    void aLeakFromOneUpstreamIsSanitized() {
        String leak = run.get("leak").toString();
        assertThat(leak).doesNotContain("S3cr3tPass").doesNotContain("/home/app").contains("UPSTREAM_ERROR");
    }

    @Test
    void aHangingUpstreamTimesOutWithoutTakingTheOthersDown() {
        String hang = run.at("/hang/value/content/0/text").asString();
        assertThat(hang).contains("TIMEOUT");
        assertThat(run.at("/afterHang/value/content/0/text").asString()).isEqualTo("Echo: still up");
    }

    @Test
    void severalUpstreamsAreOneServerWithTheirCapabilitiesTogether() {
        assertThat(run.at("/serverVersion/name").asString()).isEqualTo("warden-gateway");
        assertThat(run.at("/capabilities").has("tools")).isTrue();
        assertThat(run.at("/capabilities").has("prompts")).isTrue();
    }

    @Test
    void aBadConfigurationNamesTheKeyAndExitsWithTwo() throws Exception {
        Path bad = dataDir.resolve("bad.yaml");
        Files.writeString(bad, "upstreams:\n  a:\n    command: x\n    timeout: soon\n");
        Processes.Result result = Processes.run(List.of(Processes.LAUNCHER.toString(), "gateway", "--config",
                bad.toString()));
        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.stderr()).contains("upstreams.a.timeout: expected a duration such as 60s, 5m or 1500ms");
    }
}
