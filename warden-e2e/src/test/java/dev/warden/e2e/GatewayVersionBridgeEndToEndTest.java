package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;

/**
 * An old client in front of a new server: the TypeScript SDK v1 client (session-based versions)
 * through {@code warden gateway} to a server on the TypeScript SDK v2 that speaks only 2026-07-28
 * and refuses {@code initialize}. The gateway initializes the client, talks to the server
 * statelessly, and turns the server's input requests into requests to the client.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GatewayVersionBridgeEndToEndTest {

    LinePeer modern;
    LinePeer gateway;
    JsonNode direct;
    JsonNode bridged;

    @BeforeAll
    void start() throws Exception {
        modern = new LinePeer(Processes.node("modern-server.mjs"));
        String listening = modern.nextLine(Duration.ofSeconds(30));
        assertThat(listening).startsWith("listening ");
        String url = "http://127.0.0.1:" + listening.substring("listening ".length()).trim() + "/";
        HttpGateway started = HttpGateway.start("""
                http: { port: 0 }
                upstreams:
                  modern: { url: "%s" }
                """.formatted(url), 1);
        gateway = started.peer();
        bridged = client(started.url());
        direct = client(url);
    }

    private static JsonNode client(String url) throws Exception {
        Processes.Result result = Processes.run(Processes.node("bridge-client.mjs", url));
        if (result.exitCode() != 0) {
            return Json.object().put("failed", result.stderr());
        }
        return Json.mapper().readTree(result.stdout());
    }

    @AfterAll
    void stop() throws Exception {
        if (gateway != null) {
            gateway.destroy();
        }
        if (modern != null) {
            modern.destroy();
        }
    }

    @Test
    void withoutTheGatewayTheOldClientCannotConnectAtAll() {
        assertThat(direct.has("failed")).as(direct.toString()).isTrue();
    }

    @Test
    void theOldClientInitializesInItsOwnVersionAndSeesTheServersName() {
        assertThat(bridged.path("protocolVersion").asString()).isEqualTo("2025-11-25");
        assertThat(bridged.at("/serverVersion/name").asString()).isEqualTo("modern-ts");
        assertThat(bridged.at("/capabilities/tools").isObject()).isTrue();
    }

    @Test
    void toolsAndSuccessfulResultsCrossAsTheServerGaveThem() {
        List<String> names = bridged.at("/listTools/value/tools").valueStream().map(t -> t.get("name").asString())
                .toList();
        assertThat(names).contains("echo", "confirm", "capabilities", "noisy", "leak");
        assertThat(bridged.at("/echo/value/content/0/text").asString()).isEqualTo("Echo: across the versions");
        assertThat(bridged.at("/echo/value/isError").asBoolean(false)).isFalse();
    }

    @Test
    void resultsLoseTheFieldsOnlyTheNewerVersionHas() {
        for (String call : List.of("listTools", "echo")) {
            JsonNode value = bridged.at("/" + call + "/value");
            assertThat(value.has("resultType")).as(call).isFalse();
            assertThat(value.has("ttlMs")).as(call).isFalse();
            assertThat(value.path("_meta").has("io.modelcontextprotocol/serverInfo")).as(call).isFalse();
        }
    }

    @Test
    void theServersInputRequestBecomesAnElicitationOfTheClientAndTheAnswerGoesBack() {
        assertThat(bridged.path("elicitations")).hasSize(1);
        assertThat(bridged.at("/elicitations/0/message").asString()).isEqualTo("Proceed?");
        assertThat(bridged.at("/confirm/value/content/0/text").asString())
                .isEqualTo("answer: {\"action\":\"accept\",\"content\":{\"yes\":true}}");
    }

    @Test
    void eachRequestCarriesTheCapabilitiesOfTheClientThatMadeIt() {
        JsonNode caps = Json.mapper().readTree(bridged.at("/clientCapabilities/value/content/0/text").asString());
        assertThat(caps.has("elicitation")).isTrue();
        assertThat(caps.has("sampling")).isFalse();
    }

    @Test
    void theLevelTheClientSetBringsTheServersLogsSanitized() {
        assertThat(bridged.at("/setLevel/ok").asBoolean()).isTrue();
        assertThat(bridged.path("logs").toString()).contains("working on it").doesNotContain("ghp_AAAA");
        assertThat(bridged.at("/noisy/value/content/0/text").asString()).isEqualTo("done");
    }

    @Test
    void aFailureArrivesSanitizedWithACodeAndARef() {
        JsonNode leak = bridged.at("/leak/value");
        assertThat(leak.path("isError").asBoolean()).isTrue();
        String text = leak.toString();
        assertThat(text).doesNotContain("10.0.3.7", "hunter2", "/srv/app", "pool.js");
        assertThat(text).contains("ref");
    }

    @Test
    void anUnknownToolIsInvalidParamsAndPingIsAnswered() {
        assertThat(bridged.at("/unknown/error/code").asInt()).isEqualTo(-32602);
        assertThat(bridged.get("unknown").toString()).doesNotContain("no_such_tool");
        assertThat(bridged.at("/ping/ok").asBoolean()).isTrue();
    }
}
