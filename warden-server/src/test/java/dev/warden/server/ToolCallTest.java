package dev.warden.server;

import static dev.warden.server.TestClient.json;
import static dev.warden.server.TestClient.toolError;
import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.error.Ref;
import dev.warden.core.error.ToolFailure;
import dev.warden.core.incident.Incident;
import dev.warden.core.mcp.Logging;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class ToolCallTest {

    private final List<Incident> incidents = new CopyOnWriteArrayList<>();
    private final CountDownLatch slowStarted = new CountDownLatch(1);
    private final CountDownLatch slowInterrupted = new CountDownLatch(1);
    private TestClient client;

    private static final String USER_SCHEMA = """
            {"type":"object","properties":{
               "email":{"type":"string","format":"email"},
               "age":{"type":"integer","minimum":0},
               "tags":{"type":"array","items":{"type":"string","maxLength":3}},
               "meta":{"type":"object","additionalProperties":{"type":"integer"}}},
             "required":["email"],"additionalProperties":false}""";

    @BeforeEach
    void start() throws Exception {
        McpServer server = McpServer.builder("test", "1.0")
                .incidents(incidents::add)
                .pageSize(2)
                .tool(ToolSpec.builder("register").inputSchema(USER_SCHEMA)
                        .handler(call -> ToolResult.text("ok " + call.string("email").orElseThrow())).build())
                .tool(ToolSpec.builder("missing").handler(call -> {
                    throw ToolFailure.notFound("No order with that number.");
                }).build())
                .tool(ToolSpec.builder("returns_failure")
                        .handler(call -> ToolResult.failed(ToolFailure.conflict("Already shipped."))).build())
                .tool(ToolSpec.builder("crash").handler(call -> {
                    throw new IllegalStateException("at /srv/app/Billing.java:42 password=hunter2");
                }).build())
                .tool(ToolSpec.builder("typed").outputSchema(
                                "{\"type\":\"object\",\"properties\":{\"n\":{\"type\":\"integer\"}},\"required\":[\"n\"]}")
                        .handler(call -> switch (call.string("mode").orElse("ok")) {
                            case "bad" -> ToolResult.structured(json("{\"n\":\"not a number\"}"));
                            case "none" -> ToolResult.text("no structure");
                            case "fail" -> ToolResult.failed(ToolFailure.notFound("Nothing to count."));
                            default -> ToolResult.structured(json("{\"n\":3}"));
                        }).build())
                .tool(ToolSpec.builder("slow").handler(call -> {
                    slowStarted.countDown();
                    try {
                        new CountDownLatch(1).await(); // holds the call until it is cancelled
                    } catch (InterruptedException e) {
                        slowInterrupted.countDown();
                        throw e;
                    }
                    return ToolResult.text("late");
                }).build())
                .tool(ToolSpec.builder("chatty").handler(call -> {
                    call.context().log(Logging.Level.DEBUG, "debug detail");
                    call.context().log(Logging.Level.WARNING, "running low on quota");
                    return ToolResult.text("done");
                }).build())
                .build();
        client = TestClient.initialized(server);
    }

    @AfterEach
    void stop() {
        client.close();
    }

    @Test
    void unknownToolIsInvalidParamsWithoutEchoingTheName() throws Exception {
        String raw = client.callTool("probe_tool_name_7731", json("{}")).toString();
        JsonNode error = json(raw).get("error");
        assertThat(error.get("code").asInt()).isEqualTo(-32602);
        assertThat(error.get("message").stringValue()).isEqualTo("Unknown tool");
        assertThat(error.get("data").get("code").stringValue()).isEqualTo("NOT_FOUND");
        assertThat(raw).doesNotContain("probe_tool_name_7731");
    }

    @Test
    void aMissingToolNameIsInvalidParams() throws Exception {
        assertThat(client.request("tools/call", json("{}")).get("error").get("code").asInt()).isEqualTo(-32602);
    }

    @Test
    void argumentsThatAreNotAnObjectAreInvalidParams() throws Exception {
        JsonNode reply = client.request("tools/call", json("{\"name\":\"register\",\"arguments\":[1,2]}"));
        assertThat(reply.get("error").get("code").asInt()).isEqualTo(-32602);
    }

    @Test
    void schemaViolationsAreAValidationErrorResultWithOneLineEach() throws Exception {
        JsonNode error = toolError(client.callTool("register",
                json("{\"email\":\"nope\",\"age\":-1,\"tags\":[\"ok\",\"toolong\"]}")));
        assertThat(error.get("code").stringValue()).isEqualTo("VALIDATION_ERROR");
        assertThat(error.get("message").stringValue().split("\n")).containsExactlyInAnyOrder(
                "/email: must be an email address",
                "/age: must be greater than or equal to 0",
                "/tags/1: must be at most 3 characters long");
        assertThat(Ref.isWellFormed(error.get("ref").stringValue())).isTrue();
    }

    @Test
    void violationsNeverEchoTheCallersValuesOrKeys() throws Exception {
        String raw = client.callTool("register", json("{\"email\":\"sk_live_SECRETVALUE\","
                + "\"meta\":{\"evil_key_probe\":\"x\"},\"unexpected_probe\":1}")).toString();
        assertThat(raw).contains("VALIDATION_ERROR")
                .doesNotContain("SECRETVALUE").doesNotContain("evil_key_probe").doesNotContain("unexpected_probe");
        assertThat(toolError(json(raw)).get("message").stringValue()).contains("/meta/*: must be an integer");
    }

    @Test
    void validArgumentsReachTheHandler() throws Exception {
        JsonNode result = client.callTool("register", json("{\"email\":\"a@example.com\"}")).get("result");
        assertThat(result.get("isError").asBoolean()).isFalse();
        assertThat(result.get("content").get(0).get("text").stringValue()).isEqualTo("ok a@example.com");
    }

    @Test
    void aThrownToolFailureIsRenderedWithItsTrustedMessage() throws Exception {
        JsonNode error = toolError(client.callTool("missing", null));
        assertThat(error.get("code").stringValue()).isEqualTo("NOT_FOUND");
        assertThat(error.get("message").stringValue()).isEqualTo("No order with that number.");
        assertThat(error.get("retryable").asBoolean()).isFalse();
    }

    @Test
    void aReturnedFailureIsRenderedLikeAThrownOne() throws Exception {
        JsonNode error = toolError(client.callTool("returns_failure", null));
        assertThat(error.get("code").stringValue()).isEqualTo("CONFLICT");
        assertThat(error.get("message").stringValue()).isEqualTo("Already shipped.");
    }

    @Test
    void anUnexpectedExceptionShowsOnlyARefWhileTheIncidentKeepsTheDetail() throws Exception {
        String raw = client.callTool("crash", null).toString();
        JsonNode error = toolError(json(raw));
        assertThat(error.get("code").stringValue()).isEqualTo("INTERNAL_ERROR");
        assertThat(error.get("message").stringValue()).isEqualTo("An internal error occurred.");
        assertThat(raw).doesNotContain("hunter2").doesNotContain("Billing.java").doesNotContain("IllegalState");
        Incident incident = incidents.stream().filter(i -> i.ref().value().equals(error.get("ref").stringValue()))
                .findFirst().orElseThrow();
        assertThat(incident.tool()).contains("crash");
        assertThat(incident.chain().get(0).message().orElseThrow()).contains("password=hunter2");
    }

    @Test
    void structuredOutputIsCheckedAndAlsoSentAsText() throws Exception {
        JsonNode result = client.callTool("typed", json("{}")).get("result");
        assertThat(result.get("structuredContent").get("n").asInt()).isEqualTo(3);
        assertThat(result.get("content").get(0).get("text").stringValue()).isEqualTo("{\"n\":3}");
    }

    @Test
    void outputThatViolatesTheOutputSchemaIsAnInternalError() throws Exception {
        JsonNode error = toolError(client.callTool("typed", json("{\"mode\":\"bad\"}")));
        assertThat(error.get("code").stringValue()).isEqualTo("INTERNAL_ERROR");
    }

    @Test
    void missingStructuredContentForAnOutputSchemaIsAnInternalError() throws Exception {
        assertThat(toolError(client.callTool("typed", json("{\"mode\":\"none\"}"))).get("code").stringValue())
                .isEqualTo("INTERNAL_ERROR");
    }

    @Test
    void errorsOfToolsWithAnOutputSchemaCarryNoStructuredContent() throws Exception {
        JsonNode response = client.callTool("typed", json("{\"mode\":\"fail\"}"));
        assertThat(response.get("result").has("structuredContent")).isFalse();
        assertThat(toolError(response).get("code").stringValue()).isEqualTo("NOT_FOUND");
    }

    @Test
    void errorsOfToolsWithoutAnOutputSchemaRepeatTheErrorAsStructuredContent() throws Exception {
        JsonNode response = client.callTool("missing", null);
        assertThat(response.get("result").get("structuredContent").get("error").get("code").stringValue())
                .isEqualTo("NOT_FOUND");
    }

    @Test
    void toolsAreListedInPagesWithAnOpaqueCursor() throws Exception {
        JsonNode first = client.request("tools/list", json("{}")).get("result");
        assertThat(first.get("tools").size()).isEqualTo(2);
        int seen = first.get("tools").size();
        String cursor = first.get("nextCursor").stringValue();
        while (cursor != null) {
            JsonNode page = client.request("tools/list", json("{\"cursor\":\"" + cursor + "\"}")).get("result");
            seen += page.get("tools").size();
            cursor = page.has("nextCursor") ? page.get("nextCursor").stringValue() : null;
        }
        assertThat(seen).isEqualTo(7);
    }

    @Test
    void aForgedCursorIsInvalidParamsWithoutEcho() throws Exception {
        String raw = client.requestRaw("tools/list", json("{\"cursor\":\"forged_cursor_probe\"}"));
        assertThat(json(raw).get("error").get("code").asInt()).isEqualTo(-32602);
        assertThat(raw).doesNotContain("forged_cursor_probe");
    }

    @Test
    void cancellingACallInterruptsTheToolAndSendsNoResult() throws Exception {
        client.send("{\"jsonrpc\":\"2.0\",\"id\":\"c1\",\"method\":\"tools/call\",\"params\":{\"name\":\"slow\"}}");
        assertThat(slowStarted.await(20, TimeUnit.SECONDS)).isTrue();
        client.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":\"c1\"}}");
        assertThat(slowInterrupted.await(20, TimeUnit.SECONDS)).isTrue();
        JsonNode ping = client.request("ping", null);
        assertThat(ping.get("result").isObject()).isTrue();
        assertThat(client.queued()).isZero();
        assertThat(incidents).isEmpty();
    }

    @Test
    void logMessagesRespectTheClientsLevel() throws Exception {
        client.request("logging/setLevel", json("{\"level\":\"warning\"}"));
        client.send("{\"jsonrpc\":\"2.0\",\"id\":\"log\",\"method\":\"tools/call\",\"params\":{\"name\":\"chatty\"}}");
        JsonNode first = client.next();
        assertThat(first.get("method").stringValue()).isEqualTo("notifications/message");
        assertThat(first.get("params").get("level").stringValue()).isEqualTo("warning");
        assertThat(first.get("params").get("data").stringValue()).isEqualTo("running low on quota");
        assertThat(client.next().get("id").stringValue()).isEqualTo("log");
    }
}
