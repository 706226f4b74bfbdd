package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.node.StringNode;

/**
 * Authentication changes who may call, never what a caller gets: the same session of requests,
 * from the TypeScript SDK client, through two gateways (each its own process) in front of
 * server-everything over stdio, one with {@code auth:} (issuer = a real authorization server, the
 * caller presenting a client-credentials token on every request) and one without. What the client
 * received is the same, compared as JSON after {@link #normalized} takes out the one thing that
 * differs by design: the incident refs. (One upstream alone: its tools keep their own names.)
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GatewayAuthDifferentialEndToEndTest {

    /**
     * A ref ({@code ref_} and its random id) is new for every incident, so the two gateways give
     * the same failure different refs, in {@code error.data.ref}, in a tool error's structured
     * content and in its text. Session ids are not compared at all: they are transport headers,
     * not part of any result the client received.
     */
    static final Pattern REF = Pattern.compile("ref_[A-Za-z0-9_-]+");

    AuthorizationServer as;
    HttpGateway secured;
    HttpGateway open;
    JsonNode throughSecured;
    JsonNode throughOpen;

    @BeforeAll
    void runTheSameSessionThroughBothGateways() throws Exception {
        as = AuthorizationServer.start();
        String upstream = """
                upstreams:
                  everything:
                    command: [%s, %s, stdio]
                """.formatted(Processes.NODE, WardenClientWithServerEverythingTest.SERVER);
        secured = HttpGateway.start("""
                http: { port: 0 }
                auth:
                  issuers:
                    - issuer: %s
                  scopes: [mcp:tools]
                """.formatted(as.issuer()) + upstream, 1);
        open = HttpGateway.start("http: { port: 0 }\n" + upstream, 1);
        BearerClient session = new BearerClient()
                .request("tools/list", "tools/list", Json.object())
                .request("resources/list", "resources/list", Json.object())
                .request("prompts/list", "prompts/list", Json.object())
                .call("echo", "echo", "{\"message\":\"hello\"}")
                .call("get-sum", "get-sum", "{\"a\":2,\"b\":3}")
                .call("wrong-argument-type", "get-sum", "{\"a\":\"two\",\"b\":3}")
                .call("unknown-tool", "no_such_tool", "{}");
        String token = as.clientCredentialsToken(secured.url(), Set.of("mcp:tools"));
        throughSecured = session.runAgainst(secured.url(), Optional.of(token));
        throughOpen = session.runAgainst(open.url(), Optional.empty());
    }

    @AfterAll
    void stop() throws Exception {
        for (HttpGateway g : new HttpGateway[] {secured, open}) {
            if (g != null) {
                g.stop();
            }
        }
        if (as != null) {
            as.close();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"tools/list", "resources/list", "prompts/list", "echo", "get-sum", "wrong-argument-type",
            "unknown-tool"})
    void theAuthorizedCallerReceivesWhatTheCallerOfTheGatewayWithoutAuthReceives(String step) {
        assertThat(throughSecured.at("/connect/ok").asBoolean()).as(throughSecured.toString()).isTrue();
        assertThat(normalized(throughSecured.at("/steps/" + step.replace("/", "~1"))))
                .as("%s; with auth: %s; without: %s", step, throughSecured, throughOpen)
                .isEqualTo(normalized(throughOpen.at("/steps/" + step.replace("/", "~1"))));
    }

    @Test
    void theSessionDoesRealWorkSoTheComparisonIsNotOfTwoFailures() {
        JsonNode steps = throughOpen.get("steps");
        assertThat(steps.at("/tools~1list/result/tools").size()).as(throughOpen.toString()).isPositive();
        assertThat(steps.at("/resources~1list/result/resources").size()).isPositive();
        assertThat(steps.at("/prompts~1list/result/prompts").size()).isPositive();
        assertThat(steps.at("/echo/result/content/0/text").asString()).isEqualTo("Echo: hello");
        assertThat(steps.at("/get-sum/result/content/0/text").asString()).contains("5");
    }

    @Test
    void theFailuresAreTheFailuresTheyShouldBe() {
        JsonNode steps = throughSecured.get("steps");
        JsonNode wrongType = steps.get("wrong-argument-type");
        assertThat(wrongType.at("/result/isError").asBoolean() || wrongType.has("error"))
                .as(throughSecured.toString()).isTrue();
        // server-everything answers a tool it lacks with an isError result, and so does the gateway (issue 31).
        assertThat(steps.at("/unknown-tool/result/isError").asBoolean()).as(throughSecured.toString()).isTrue();
        assertThat(steps.get("unknown-tool").toString()).doesNotContain("no_such_tool");
    }

    /** {@code node} with every ref replaced by {@code ref_*}, in every string where it stands. */
    static JsonNode normalized(JsonNode node) {
        if (node.isString()) {
            return StringNode.valueOf(REF.matcher(node.asString()).replaceAll("ref_*"));
        }
        if (node instanceof ObjectNode o) {
            ObjectNode copy = Json.object();
            for (Map.Entry<String, JsonNode> e : o.properties()) {
                copy.set(e.getKey(), normalized(e.getValue()));
            }
            return copy;
        }
        if (node instanceof ArrayNode a) {
            ArrayNode copy = Json.mapper().createArrayNode();
            a.forEach(item -> copy.add(normalized(item)));
            return copy;
        }
        return node;
    }
}
