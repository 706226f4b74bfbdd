package dev.warden.http.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.incident.IncidentSink;
import dev.warden.core.json.Json;
import dev.warden.server.McpServer;
import dev.warden.server.ToolResult;
import dev.warden.server.ToolSpec;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** MCP 2026-07-28 over Streamable HTTP: no session, headers that must agree with the body, and its error codes. */
class StatelessHttpTest {

    private static final String META = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
            + "\"io.modelcontextprotocol/clientCapabilities\":{}}";

    private McpHttpServer http;
    private HttpPeer peer;

    @BeforeEach
    void start() throws Exception {
        McpServer server = McpServer.builder("stateless-test", "1.0.0")
                .incidents(IncidentSink.all())
                .tool(ToolSpec.builder("echo").inputSchema(
                                "{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\"}}}")
                        .handler(call -> ToolResult.text(call.arguments().path("text").asString(""))).build())
                .tool(ToolSpec.builder("ask").handler(call -> {
                    call.context().requestClient("sampling/createMessage", Json.object());
                    return ToolResult.text("asked");
                }).build())
                .tool(ToolSpec.builder("confirm").handler(call -> {
                    ObjectNode ask = Json.object();
                    ask.put("message", "Proceed?");
                    ObjectNode answer = call.context().requestClient("elicitation/create", ask);
                    return ToolResult.text("answer: " + answer.path("action").asString());
                }).build())
                .tool(ToolSpec.builder("greet").handler(call -> {
                    ObjectNode ask = Json.object();
                    ask.put("message", "Your name?");
                    ObjectNode name = call.context().input("user_name", "elicitation/create", ask);
                    ObjectNode ask2 = Json.object();
                    ask2.put("message", "Your colour?");
                    ObjectNode color = call.context().input("color", "elicitation/create", ask2);
                    return ToolResult.text(name.at("/content/name").asString() + " likes "
                            + color.at("/content/color").asString());
                }).build())
                .tool(ToolSpec.builder("chatty").handler(call -> {
                    call.context().log(dev.warden.core.mcp.Logging.Level.WARNING, "disk almost full");
                    return ToolResult.text("ok");
                }).build())
                .tool(ToolSpec.builder("route").inputSchema("""
                                {"type":"object","properties":{
                                  "region":{"type":"string","x-mcp-header":"Region"},
                                  "priority":{"type":"integer","x-mcp-header":"Priority"},
                                  "query":{"type":"string"}}}""")
                        .handler(call -> ToolResult.text("routed")).build())
                .prompt(new dev.warden.server.PromptSpec(new dev.warden.core.mcp.Prompts.Prompt("greet",
                        java.util.Optional.empty(), java.util.Optional.empty(), java.util.List.of()), (args, input) -> {
                    ObjectNode ask = Json.object();
                    ask.put("message", "Your name?");
                    ObjectNode name = input.input("user_name", "elicitation/create", ask);
                    return new dev.warden.core.mcp.Prompts.GetResult(java.util.Optional.empty(), java.util.List.of(
                            new dev.warden.core.mcp.Prompts.Message(dev.warden.core.mcp.Prompts.Role.USER,
                                    dev.warden.core.mcp.Content.text("Hello " + name.at("/content/name").asString()))));
                }))
                .tool(ToolSpec.builder("steps").handler(call -> {
                    call.context().progress(1, 2, null);
                    call.context().progress(2, 2, null);
                    return ToolResult.text("done");
                }).build())
                .build();
        http = McpHttpServer.builder().onSession(server::connect).build().start();
        peer = new HttpPeer(http.endpoint());
    }

    @AfterEach
    void stop() {
        HttpPeer.closeAll();
        http.close();
    }

    private static Map<String, String> headers(String method, String name) {
        Map<String, String> h = new HashMap<>(HttpPeer.jsonHeaders());
        h.put("MCP-Protocol-Version", "2026-07-28");
        h.put("Mcp-Method", method);
        if (name != null) {
            h.put("Mcp-Name", name);
        }
        return h;
    }

    private static String call(int id, String tool, String arguments) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool
                + "\",\"arguments\":" + arguments + "," + META + "}}";
    }

    private static JsonNode json(HttpResponse<String> response) {
        return Json.mapper().readTree(response.body());
    }

    private static void assertError(HttpResponse<String> response, int status, int code, int id) {
        assertThat(response.statusCode()).isEqualTo(status);
        JsonNode body = json(response);
        assertThat(body.get("id").asInt()).as("the error keeps the request's id").isEqualTo(id);
        assertThat(body.at("/error/code").asInt()).isEqualTo(code);
    }

    @Test
    void aToolCallNeedsNoSessionAndIsAnsweredWithJson() throws Exception {
        HttpResponse<String> response = peer.send(peer.post(call(1, "echo", "{\"text\":\"hi\"}"),
                headers("tools/call", "echo")));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json");
        assertThat(response.headers().firstValue("Mcp-Session-Id")).isEmpty();
        JsonNode body = json(response);
        assertThat(body.at("/result/content/0/text").asString()).isEqualTo("hi");
        assertThat(body.at("/result/resultType").asString()).isEqualTo("complete");
        assertThat(body.at("/result/_meta/io.modelcontextprotocol~1serverInfo/name").asString())
                .isEqualTo("stateless-test");
        assertThat(http.sessionCount()).isZero();
    }

    @Test
    void notificationsBeforeTheAnswerMakeItAnEventStream() throws Exception {
        String body = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"steps\","
                + "\"arguments\":{},\"_meta\":{\"progressToken\":\"t\",\"io.modelcontextprotocol/protocolVersion\":"
                + "\"2026-07-28\",\"io.modelcontextprotocol/clientCapabilities\":{}}}}";
        HttpResponse<String> response = peer.send(peer.post(body, headers("tools/call", "steps")));

        assertThat(response.headers().firstValue("Content-Type")).hasValue("text/event-stream");
        List<HttpPeer.Event> events = HttpPeer.events(response.body());
        assertThat(events).hasSize(3);
        assertThat(events.get(2).data()).contains("\"id\":2");
    }

    @Test
    void listResultsCarryCachingHints() throws Exception {
        HttpResponse<String> response = peer.send(peer.post(
                "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/list\",\"params\":{" + META + "}}",
                headers("tools/list", null)));
        JsonNode result = json(response).get("result");
        assertThat(result.get("ttlMs").asInt()).isZero();
        assertThat(result.get("cacheScope").asString()).isEqualTo("private");
    }

    @Test
    void discoverListsEveryVersionAndTheCapabilities() throws Exception {
        HttpResponse<String> response = peer.send(peer.post(
                "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"server/discover\",\"params\":{" + META + "}}",
                headers("server/discover", null)));
        JsonNode result = json(response).get("result");
        assertThat(result.get("supportedVersions").valueStream().map(JsonNode::asString))
                .contains("2025-11-25", "2026-07-28");
        assertThat(result.get("capabilities").has("tools")).isTrue();
    }

    @Test
    void aVersionHeaderThatDiffersFromTheBodyIs400HeaderMismatch() throws Exception {
        Map<String, String> h = headers("tools/call", "echo");
        h.put("MCP-Protocol-Version", "2025-11-25");
        assertError(peer.send(peer.post(call(5, "echo", "{}"), h)), 400, -32020, 5);
    }

    @Test
    void aMissingMethodHeaderIs400HeaderMismatch() throws Exception {
        Map<String, String> h = headers("tools/call", "echo");
        h.remove("Mcp-Method");
        assertError(peer.send(peer.post(call(6, "echo", "{}"), h)), 400, -32020, 6);
    }

    @Test
    void aNameHeaderForAnotherToolIs400HeaderMismatchWithoutEchoingEither() throws Exception {
        HttpResponse<String> response = peer.send(peer.post(call(7, "echo", "{}"), headers("tools/call", "rm_rf")));
        assertError(response, 400, -32020, 7);
        assertThat(response.body()).doesNotContain("rm_rf");
    }

    @Test
    void aBase64NameHeaderIsDecodedBeforeComparing() throws Exception {
        String encoded = "=?base64?" + Base64.getEncoder().encodeToString("echo".getBytes(StandardCharsets.UTF_8))
                + "?=";
        HttpResponse<String> response = peer.send(peer.post(call(8, "echo", "{\"text\":\"ok\"}"),
                headers("tools/call", encoded)));
        assertThat(response.statusCode()).isEqualTo(200);
    }

    @Test
    void anUnsupportedVersionIs400WithTheSupportedListAndTheRequestedOne() throws Exception {
        String body = "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/list\",\"params\":{\"_meta\":{"
                + "\"io.modelcontextprotocol/protocolVersion\":\"2099-01-01\","
                + "\"io.modelcontextprotocol/clientCapabilities\":{}}}}";
        Map<String, String> h = headers("tools/list", null);
        h.put("MCP-Protocol-Version", "2099-01-01");
        HttpResponse<String> response = peer.send(peer.post(body, h));

        assertError(response, 400, -32022, 9);
        JsonNode data = json(response).at("/error/data");
        assertThat(data.get("requested").asString()).isEqualTo("2099-01-01");
        assertThat(data.get("supported").valueStream().map(JsonNode::asString)).contains("2026-07-28");
    }

    @Test
    void aRequestedVersionThatIsNotVersionShapedIsNotEchoed() throws Exception {
        String body = "{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"tools/list\",\"params\":{\"_meta\":{"
                + "\"io.modelcontextprotocol/protocolVersion\":\"<img src=x>\","
                + "\"io.modelcontextprotocol/clientCapabilities\":{}}}}";
        Map<String, String> h = headers("tools/list", null);
        h.put("MCP-Protocol-Version", "<img src=x>");
        HttpResponse<String> response = peer.send(peer.post(body, h));
        assertThat(response.body()).doesNotContain("<img");
    }

    @Test
    void aRequestWithoutMetaIs400InvalidParams() throws Exception {
        HttpResponse<String> response = peer.send(peer.post(
                "{\"jsonrpc\":\"2.0\",\"id\":11,\"method\":\"tools/list\",\"params\":{}}", headers("tools/list", null)));
        assertError(response, 400, -32602, 11);
    }

    @Test
    void anUnknownMethodIs404MethodNotFound() throws Exception {
        HttpResponse<String> response = peer.send(peer.post(
                "{\"jsonrpc\":\"2.0\",\"id\":12,\"method\":\"tools/frobnicate\",\"params\":{" + META + "}}",
                headers("tools/frobnicate", null)));
        assertError(response, 404, -32601, 12);
    }

    @Test
    void methodsThisVersionRemovedAre404() throws Exception {
        for (String method : List.of("initialize", "ping", "logging/setLevel")) {
            HttpResponse<String> response = peer.send(peer.post(
                    "{\"jsonrpc\":\"2.0\",\"id\":13,\"method\":\"" + method + "\",\"params\":{" + META + "}}",
                    headers(method, null)));
            assertError(response, 404, -32601, 13);
        }
    }

    @Test
    void anUnknownResourceIsInvalidParamsInThisVersion() throws Exception {
        McpServer withResources = McpServer.builder("r", "1").incidents(IncidentSink.all())
                .resource(new dev.warden.core.mcp.Resources.Resource("test://a", "a", java.util.Optional.empty(),
                        java.util.Optional.empty(), java.util.Optional.empty(), java.util.OptionalLong.empty()),
                        (uri, vars) -> List.of())
                .build();
        try (McpHttpServer other = McpHttpServer.builder().onSession(withResources::connect).build().start()) {
            HttpPeer otherPeer = new HttpPeer(other.endpoint());
            HttpResponse<String> response = otherPeer.send(otherPeer.post(
                    "{\"jsonrpc\":\"2.0\",\"id\":14,\"method\":\"resources/read\",\"params\":{\"uri\":\"test://b\","
                            + META + "}}", headers("resources/read", "test://b")));
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(json(response).at("/error/code").asInt()).isEqualTo(-32602);
            assertThat(response.body()).doesNotContain("test://b");
        }
    }

    @Test
    void aToolNeedingAnUndeclaredCapabilityIs400MissingRequiredClientCapability() throws Exception {
        HttpResponse<String> response = peer.send(peer.post(call(16, "ask", "{}"), headers("tools/call", "ask")));
        assertError(response, 400, -32021, 16);
        assertThat(json(response).at("/error/data/requiredCapabilities/sampling").isObject()).isTrue();
    }

    @Test
    void noLogMessageReachesARequestThatDidNotAskForLogs() throws Exception {
        HttpResponse<String> response = peer.send(peer.post(call(17, "chatty", "{}"), headers("tools/call", "chatty")));
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json");
        assertThat(response.body()).doesNotContain("notifications/message");
    }

    @Test
    void aRequestThatAsksForLogsGetsThoseAtItsLevel() throws Exception {
        String body = "{\"jsonrpc\":\"2.0\",\"id\":18,\"method\":\"tools/call\",\"params\":{\"name\":\"chatty\","
                + "\"arguments\":{},\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
                + "\"io.modelcontextprotocol/clientCapabilities\":{},\"io.modelcontextprotocol/logLevel\":\"info\"}}}";
        HttpResponse<String> response = peer.send(peer.post(body, headers("tools/call", "chatty")));
        assertThat(response.body()).contains("notifications/message").contains("disk almost full");
    }

    @Test
    void aListenStreamIsAcknowledgedFirstThenCarriesTheUpdatesItAskedFor() throws Exception {
        McpServer watched = HttpPeer.watchedServer("test://a");
        try (McpHttpServer other = McpHttpServer.builder().onSession(watched::connect).build().start()) {
            HttpPeer otherPeer = new HttpPeer(other.endpoint());
            HttpResponse<java.util.stream.Stream<String>> stream = otherPeer.stream(otherPeer.post(
                    "{\"jsonrpc\":\"2.0\",\"id\":\"sub-1\",\"method\":\"subscriptions/listen\",\"params\":{"
                            + "\"notifications\":{\"resourceSubscriptions\":[\"test://a\"],\"toolsListChanged\":true},"
                            + META + "}}", headers("subscriptions/listen", null)));
            java.util.Iterator<String> lines = stream.body().iterator();

            JsonNode ack = Json.mapper().readTree(HttpPeer.events(lines, 1).get(0).data());
            assertThat(ack.get("method").asString()).isEqualTo("notifications/subscriptions/acknowledged");
            assertThat(ack.at("/params/_meta/io.modelcontextprotocol~1subscriptionId").asString()).isEqualTo("sub-1");
            assertThat(ack.at("/params/notifications/resourceSubscriptions/0").asString()).isEqualTo("test://a");
            assertThat(ack.at("/params/notifications").has("toolsListChanged"))
                    .as("only what the server honours is acknowledged").isFalse();

            watched.resourceUpdated("test://other"); // not subscribed: nothing is sent
            watched.resourceUpdated("test://a");
            JsonNode update = Json.mapper().readTree(HttpPeer.events(lines, 1).get(0).data());
            assertThat(update.get("method").asString()).isEqualTo("notifications/resources/updated");
            assertThat(update.at("/params/uri").asString()).isEqualTo("test://a");
            assertThat(update.at("/params/_meta/io.modelcontextprotocol~1subscriptionId").asString())
                    .isEqualTo("sub-1");
            stream.body().close();
        }
    }

    private static final String ELICIT_META = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
            + "\"io.modelcontextprotocol/clientCapabilities\":{\"elicitation\":{}}}";

    private HttpResponse<String> greet(int id, String extra) throws Exception {
        return peer.send(peer.post("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{"
                + "\"name\":\"greet\",\"arguments\":{}" + extra + "," + ELICIT_META + "}}", headers("tools/call", "greet")));
    }

    private HttpResponse<String> confirm(int id, String extra) throws Exception {
        return peer.send(peer.post("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{"
                + "\"name\":\"confirm\",\"arguments\":{}" + extra + "," + ELICIT_META + "}}", headers("tools/call", "confirm")));
    }

    @Test
    void aRequestToTheClientMadeTheSessionWayBecomesAnInputRoundNeverARequestOnTheStream() throws Exception {
        HttpResponse<String> first = confirm(23, "");
        // One JSON answer: nothing came before it on a stream, no request least of all.
        assertThat(first.headers().firstValue("Content-Type")).hasValue("application/json");
        JsonNode round1 = json(first).get("result");
        assertThat(round1.get("resultType").asString()).isEqualTo("input_required");
        assertThat(round1.at("/inputRequests/request-1/method").asString()).isEqualTo("elicitation/create");
        assertThat(round1.at("/inputRequests/request-1/params/message").asString()).isEqualTo("Proceed?");

        JsonNode done = json(confirm(24, ",\"inputResponses\":{\"request-1\":{\"action\":\"accept\"}},"
                + "\"requestState\":\"" + round1.get("requestState").asString() + "\"")).get("result");
        assertThat(done.get("resultType").asString()).isEqualTo("complete");
        assertThat(done.at("/content/0/text").asString()).isEqualTo("answer: accept");
    }

    @Test
    void inputIsAskedForRoundByRoundAndEarlierAnswersTravelInTheSignedState() throws Exception {
        JsonNode round1 = json(greet(20, "")).get("result");
        assertThat(round1.get("resultType").asString()).isEqualTo("input_required");
        assertThat(round1.at("/inputRequests/user_name/method").asString()).isEqualTo("elicitation/create");

        JsonNode round2 = json(greet(21, ",\"inputResponses\":{\"user_name\":{\"action\":\"accept\",\"content\":"
                + "{\"name\":\"Ada\"}}},\"requestState\":\"" + round1.get("requestState").asString() + "\"")).get("result");
        assertThat(round2.get("resultType").asString()).isEqualTo("input_required");
        assertThat(round2.has("inputRequests")).isTrue();
        assertThat(round2.at("/inputRequests/color").isObject()).isTrue();
        assertThat(round2.get("requestState").asString()).isNotEqualTo(round1.get("requestState").asString());

        // Only the new answer is sent: the first travels in the state.
        JsonNode done = json(greet(22, ",\"inputResponses\":{\"color\":{\"action\":\"accept\",\"content\":"
                + "{\"color\":\"blue\"}}},\"requestState\":\"" + round2.get("requestState").asString() + "\"")).get("result");
        assertThat(done.get("resultType").asString()).isEqualTo("complete");
        assertThat(done.at("/content/0/text").asString()).isEqualTo("Ada likes blue");
    }

    @Test
    void anAlteredRequestStateIsRefusedAsInvalidParams() throws Exception {
        String state = json(greet(23, "")).at("/result/requestState").asString();
        String altered = (state.charAt(0) == 'A' ? "B" : "A") + state.substring(1);
        HttpResponse<String> response = greet(24, ",\"requestState\":\"" + altered + "\"");
        assertThat(json(response).at("/error/code").asInt()).isEqualTo(-32602);
        assertThat(json(response).get("id").asInt()).isEqualTo(24);
    }

    @Test
    void askingForInputTheClientCannotGiveIs400MissingCapability() throws Exception {
        HttpResponse<String> response = peer.send(peer.post(call(25, "greet", "{}"), headers("tools/call", "greet")));
        assertError(response, 400, -32021, 25);
        assertThat(json(response).at("/error/data/requiredCapabilities/elicitation").isObject()).isTrue();
    }

    private HttpResponse<String> route(int id, String arguments, Map<String, String> params) throws Exception {
        Map<String, String> h = headers("tools/call", "route");
        h.putAll(params);
        return peer.send(peer.post(call(id, "route", arguments), h));
    }

    @Test
    void paramHeadersThatMatchTheArgumentsAreAccepted() throws Exception {
        HttpResponse<String> response = route(40, "{\"region\":\"Région 1\",\"priority\":7,\"query\":\"q\"}",
                Map.of("Mcp-Param-Region", "=?base64?UsOpZ2lvbiAx?=", "Mcp-Param-Priority", "7.0"));
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(json(response).at("/result/content/0/text").asString()).isEqualTo("routed");
    }

    @Test
    void aMissingParamHeaderIs400HeaderMismatch() throws Exception {
        HttpResponse<String> response = route(41, "{\"region\":\"eu\",\"priority\":7}",
                Map.of("Mcp-Param-Region", "eu"));
        assertError(response, 400, -32020, 41);
        assertThat(json(response).at("/error/message").asString()).contains("Mcp-Param-Priority").doesNotContain("eu");
    }

    @Test
    void aParamHeaderThatDiffersFromTheArgumentIs400HeaderMismatch() throws Exception {
        assertError(route(42, "{\"region\":\"eu\"}", Map.of("Mcp-Param-Region", "us")), 400, -32020, 42);
    }

    @Test
    void badBase64PaddingInAParamHeaderIs400HeaderMismatch() throws Exception {
        assertError(route(43, "{\"region\":\"Hello\"}", Map.of("Mcp-Param-Region", "=?base64?SGVsbG8?=")),
                400, -32020, 43);
    }

    @Test
    void aParamHeaderForAnAbsentArgumentIs400HeaderMismatch() throws Exception {
        assertError(route(44, "{}", Map.of("Mcp-Param-Region", "eu")), 400, -32020, 44);
    }

    private HttpResponse<String> prompt(int id, String extra) throws Exception {
        return peer.send(peer.post("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"prompts/get\",\"params\":{"
                + "\"name\":\"greet\"" + extra + "," + ELICIT_META + "}}", headers("prompts/get", "greet")));
    }

    @Test
    void aPromptCanAskForInputLikeATool() throws Exception {
        JsonNode round1 = json(prompt(45, "")).get("result");
        assertThat(round1.get("resultType").asString()).isEqualTo("input_required");
        JsonNode done = json(prompt(46, ",\"inputResponses\":{\"user_name\":{\"action\":\"accept\",\"content\":"
                + "{\"name\":\"Ada\"}}},\"requestState\":\"" + round1.get("requestState").asString() + "\"")).get("result");
        assertThat(done.get("resultType").asString()).isEqualTo("complete");
        assertThat(done.at("/messages/0/content/text").asString()).isEqualTo("Hello Ada");
    }

    @Test
    void aStateSignedForAToolIsRefusedByAPromptOfTheSameName() throws Exception {
        String toolState = json(greet(47, ",\"inputResponses\":{\"user_name\":{\"action\":\"accept\",\"content\":"
                + "{\"name\":\"Ada\"}}}")).at("/result/requestState").asString();
        HttpResponse<String> response = prompt(48, ",\"requestState\":\"" + toolState + "\"");
        assertThat(json(response).at("/error/code").asInt()).isEqualTo(-32602);
    }

    @Test
    void getHasNoStreamInThisVersion() throws Exception {
        HttpResponse<String> response = peer.send(HttpRequest.newBuilder(peer.endpoint()).GET()
                .header("Accept", "text/event-stream").header("MCP-Protocol-Version", "2026-07-28"));
        assertThat(response.statusCode()).isEqualTo(405);
    }

    @Test
    void aBatchIsRefused() throws Exception {
        HttpResponse<String> response = peer.send(peer.post("[" + call(15, "echo", "{}") + "]",
                headers("tools/call", "echo")));
        assertThat(response.statusCode()).isEqualTo(400);
    }
}
