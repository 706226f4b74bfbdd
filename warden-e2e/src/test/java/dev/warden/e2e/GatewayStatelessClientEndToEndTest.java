package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;

/**
 * A new client in front of an old server: the TypeScript SDK v2 client pinned to 2026-07-28
 * (stateless, no initialize) through {@code warden gateway} to server-everything over stdio, which
 * speaks only the session-based versions and asks its client for elicitation and sampling
 * mid-call. The gateway answers the stateless requests, and parks a call whose server asks the
 * client something until the client comes back with the answer.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GatewayStatelessClientEndToEndTest {

    LinePeer gateway;
    JsonNode run;
    /** A second client of the same gateway, declaring no capabilities, after the first. */
    JsonNode bare;

    @BeforeAll
    void start() throws Exception {
        HttpGateway started = HttpGateway.inFrontOfServerEverything();
        gateway = started.peer();
        Processes.Result result = Processes.run(Processes.node("modern-client.mjs",
                started.url()));
        assertThat(result.exitCode()).as(result.stderr()).isZero();
        run = Json.mapper().readTree(result.stdout());
        Processes.Result second = Processes.run(Processes.node("modern-client.mjs", started.url(), "bare"));
        assertThat(second.exitCode()).as(second.stderr()).isZero();
        bare = Json.mapper().readTree(second.stdout());
    }

    @AfterAll
    void stop() throws Exception {
        if (gateway != null) {
            gateway.destroy();
        }
    }

    @Test
    void thePinnedClientConnectsInTheStatelessVersion() {
        assertThat(run.at("/connect/ok").asBoolean()).as(run.toString()).isTrue();
        assertThat(run.path("protocolVersion").asString()).isEqualTo("2026-07-28");
        assertThat(run.at("/serverVersion/name").asString()).isEqualTo("mcp-servers/everything");
    }

    @Test
    void callsAnswerAsTheServerDidWithTheFieldsTheNewVersionRequires() {
        assertThat(run.at("/echo/value/content/0/text").asString()).isEqualTo("Echo: from the newest version");
        assertThat(run.at("/sum/value/content/0/text").asString()).isEqualTo("The sum of 2 and 3 is 5.");
        assertThat(run.at("/echo/value/_meta/io.modelcontextprotocol~1serverInfo/name").asString())
                .isEqualTo("mcp-servers/everything");
        assertThat(run.at("/listTools/value/ttlMs").isNumber()).isTrue();
        assertThat(run.at("/listTools/value/cacheScope").asString()).isEqualTo("private");
    }

    @Test
    void theServerOffersEachStatelessClientTheToolsForWhatThatClientDeclared() {
        // server-everything registers these by the capabilities its session's client declared.
        List<String> full = names(run);
        List<String> none = names(bare);
        assertThat(full).contains("trigger-elicitation-request", "trigger-sampling-request")
                .doesNotContain("get-roots-list");
        assertThat(none).contains("echo", "get-sum")
                .doesNotContain("trigger-elicitation-request", "trigger-sampling-request", "get-roots-list");
    }

    private static List<String> names(JsonNode run) {
        return run.at("/listTools/value/tools").valueStream().map(t -> t.get("name").asString()).toList();
    }

    @Test
    void anElicitationTheServerSendsMidCallReachesTheStatelessClientAndItsAnswerReachesTheServer() {
        assertThat(run.path("elicitations")).hasSize(1);
        assertThat(run.at("/elicitations/0/message").asString()).contains("Please provide inputs");
        assertThat(run.at("/elicit/value/content/0/text").asString()).contains("User provided the requested information");
        assertThat(run.at("/elicit/value/content/1/text").asString()).contains("Name: Ada");
    }

    @Test
    void aSamplingRequestTheServerSendsMidCallIsAnsweredTheSameWay() {
        assertThat(run.path("samplings")).hasSize(1);
        assertThat(run.at("/samplings/0/messages/0/content/text").asString()).contains("hello");
        assertThat(run.at("/sample/value/content/0/text").asString()).contains("sampled reply");
    }

    @Test
    void anUnknownToolKeepsTheServersIsErrorShapeWithoutItsName() {
        // server-everything answers a tool it lacks with an isError result (WrapServerEverythingEndToEndTest
        // sees it directly): the gateway keeps that shape, never a protocol error, and does not repeat the name.
        assertThat(run.at("/unknown/ok").asBoolean()).as(run.get("unknown").toString()).isTrue();
        assertThat(run.at("/unknown/value/isError").asBoolean()).as(run.get("unknown").toString()).isTrue();
        assertThat(Json.mapper().readTree(run.at("/unknown/value/content/0/text").asString()).at("/error/code")
                .asString()).isEqualTo("NOT_FOUND");
        assertThat(run.get("unknown").toString()).doesNotContain("no_such_tool");
    }

    @Test
    void resourcesAreListedAndRead() {
        assertThat(run.at("/readResource/value/contents/0/text").asString()).contains("Architecture");
        assertThat(run.at("/listResources/value/resources").size()).isPositive();
    }
}
