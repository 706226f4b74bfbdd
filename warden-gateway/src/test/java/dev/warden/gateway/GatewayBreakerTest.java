package dev.warden.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.client.McpClient;
import dev.warden.client.ReconnectPolicy;
import dev.warden.client.ToolCallResult;
import dev.warden.core.incident.IncidentSink;
import dev.warden.core.json.Json;
import dev.warden.core.transport.InMemoryTransport;
import dev.warden.gateway.config.Limits;
import dev.warden.gateway.config.Upstream;
import dev.warden.server.McpServer;
import dev.warden.server.ToolResult;
import dev.warden.server.ToolSpec;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Breakers measure the server's health, never the callers' mistakes: no answered failure, whatever
 * its words or code, pauses anything by default. Where an upstream opts in
 * ({@code countToolErrors}), a tool that fails in itself is paused alone (its refusal says which
 * tool and until when), and the server's other tools and requests go on. (A server that does not
 * answer pausing as a whole: {@code GatewayLimitsTest}.)
 */
class GatewayBreakerTest {

    /** Opens at the first chance and stays open far longer than any test: no test waits for it. */
    private static final Limits.Breaker EAGER = new Limits.Breaker(50, 2, 4, Duration.ofHours(1));

    private final AtomicInteger answered = new AtomicInteger();
    private final MovableClock clock = new MovableClock();
    private final McpServer server = McpServer.builder("db", "1.0.0").incidents(IncidentSink.all())
            .tool(ToolSpec.builder("query").handler(c -> ToolResult.text("never: answered on the way")).build())
            .tool(ToolSpec.builder("broken").handler(c -> ToolResult.text("never")).build())
            .tool(ToolSpec.builder("read").handler(c -> ToolResult.text("never")).build())
            .tool(ToolSpec.builder("ok").handler(c -> ToolResult.text("fine")).build())
            .tool(ToolSpec.builder("crash").handler(c -> ToolResult.text("never")).build())
            .tool(ToolSpec.builder("create_invoice").handler(c -> ToolResult.text("never")).build())
            .build();
    private Gateway gateway;
    private McpClient client;

    /** How servers on the TypeScript SDK v1 (server-postgres, say) answer: good SQL a result, bad SQL -32603. */
    private static String postgresLike(JsonNode arguments) {
        String sql = arguments.path("sql").asString("");
        return sql.startsWith("SELECT") ? AnsweringCalls.text("[{\"n\":1}]")
                : AnsweringCalls.error(-32603, "syntax error at or near \"" + sql.split(" ")[0] + "\"");
    }

    /**
     * Refusals real servers gave for a model's ordinary mistakes (issue 31's field trial), several
     * of them read as the server's own failure (UPSTREAM_ERROR), and a JSON-RPC internal error; a
     * well-formed call is served.
     */
    private static final List<String> MISTAKES = List.of(
            AnsweringCalls.toolError("Invoices above 5000 USD need approval: pass amount <= 5000"),
            AnsweringCalls.toolError("Key \"noSuchKey\" is not configurable via this tool. Allowed keys: currency, terms"),
            AnsweringCalls.toolError("\"#checkout-button\" does not match any elements."),
            AnsweringCalls.toolError("No session found for PID 999999"),
            AnsweringCalls.toolError("Cannot read properties of undefined (reading 'rows')"),
            AnsweringCalls.toolError("Invalid arguments: amount: Expected number, received string"),
            AnsweringCalls.error(-32603, "Internal error: customer cus_1 is blocked"));

    private static String invoice(JsonNode arguments) {
        int mistake = arguments.path("mistake").asInt(-1);
        return mistake < 0 ? AnsweringCalls.text("invoice inv_1 created") : MISTAKES.get(mistake % MISTAKES.size());
    }

    private void start(Limits.Breaker breaker) {
        Map<String, Function<JsonNode, String>> answers = Map.of(
                "create_invoice", GatewayBreakerTest::invoice,
                "crash", a -> a.path("crash").asBoolean(false) ? AnsweringCalls.CRASH : AnsweringCalls.text("up"),
                "query", GatewayBreakerTest::postgresLike,
                "broken", a -> AnsweringCalls.error(-32603, "Cannot read properties of undefined (reading 'rows')"),
                "read", a -> AnsweringCalls.toolError("EISDIR: illegal operation on a directory, read"));
        Upstream u = Upstream.builder("db", () -> {
            InMemoryTransport.Pair pair = InMemoryTransport.pair();
            server.connect(pair.right());
            return new AnsweringCalls(pair.left(), answers, answered);
        }).limits(Limits.ofDefaults().withBreaker(breaker)).reconnect(ReconnectPolicy.none()).build();
        gateway = Gateway.builder().upstream(u).incidents(IncidentSink.all()).clock(clock).build();
        client = McpClient.builder("model", "1").connect(ViaGateway.to(gateway));
    }

    @AfterEach
    void stop() {
        if (client != null) {
            client.close();
        }
        if (gateway != null) {
            gateway.close();
        }
    }

    private static JsonNode error(ToolCallResult result) {
        assertThat(result.isError()).as(result.text()).isTrue();
        return Json.mapper().readTree(result.text()).get("error");
    }

    @Test
    void fiftyBadQueriesPauseNeitherTheToolNorTheServer() {
        start(EAGER);
        for (int i = 0; i < 50; i++) {
            JsonNode e = error(client.callTool("query", Json.object().put("sql", "SELEC " + i)));
            assertThat(e.get("code").asString()).isEqualTo("VALIDATION_ERROR");
            assertThat(e.get("retryable").asBoolean()).isFalse();
        }
        ToolCallResult good = client.callTool("query", Json.object().put("sql", "SELECT 1"));
        assertThat(good.isError()).as(good.text()).isFalse();
        assertThat(good.text()).isEqualTo("[{\"n\":1}]");
        assertThat(client.listTools()).isNotEmpty();
    }

    @Test
    void fiftyCallsOnADirectoryPauseNothing() {
        start(EAGER);
        for (int i = 0; i < 50; i++) {
            JsonNode e = error(client.callTool("read", Json.object().put("path", "/srv/data")));
            assertThat(e.get("code").asString()).isEqualTo("VALIDATION_ERROR");
            assertThat(e.get("retryable").asBoolean()).isFalse();
        }
        assertThat(answered.get()).as("every call reached the server").isEqualTo(50);
        assertThat(client.callTool("ok", Json.object()).text()).isEqualTo("fine");
    }

    @Test
    void twoHundredToolErrorsInARowPauseNothingAndTheGoodCallIsServed() {
        start(EAGER);
        for (int i = 0; i < 200; i++) {
            ToolCallResult r = client.callTool("create_invoice", Json.object().put("mistake", i));
            assertThat(error(r).get("message").asString()).as("call %d", i).doesNotContain("paused");
        }
        assertThat(answered.get()).as("every call reached the server").isEqualTo(200);
        ToolCallResult good = client.callTool("create_invoice", Json.object());
        assertThat(good.isError()).as(good.text()).isFalse();
        assertThat(good.text()).isEqualTo("invoice inv_1 created");
    }

    @Test
    void aServerThatKeepsCrashingIsPausedAndRecoversAfterItsOpenTime() {
        start(new Limits.Breaker(50, 2, 2, Duration.ofSeconds(30)));
        String paused = null;
        for (int i = 0; i < 6 && paused == null; i++) {
            String text = error(client.callTool("crash", Json.object().put("crash", true))).get("message").asString();
            paused = text.contains("paused") ? text : null;
        }
        assertThat(paused).as("the server's breaker opened").startsWith("The server db is paused until ");
        int reached = answered.get();
        assertThat(error(client.callTool("ok", Json.object())).get("message").asString()).contains("paused");
        assertThat(answered.get()).isEqualTo(reached);

        clock.advance(Duration.ofSeconds(31));
        ToolCallResult back = client.callTool("crash", Json.object());
        assertThat(back.isError()).as(back.text()).isFalse();
        assertThat(back.text()).isEqualTo("up");
    }

    @Test
    void aToolThatKeepsFailingInItselfIsNotPausedByDefault() {
        start(EAGER);
        for (int i = 0; i < 20; i++) {
            assertThat(error(client.callTool("broken", Json.object())).get("message").asString())
                    .doesNotContain("paused");
        }
        assertThat(answered.get()).isEqualTo(20);
    }

    /** Calls the broken tool until its breaker refuses (each failure before that coded as the server's); the refusal. */
    private JsonNode callBrokenUntilPaused() {
        for (int i = 0; i < 10; i++) {
            JsonNode e = error(client.callTool("broken", Json.object()));
            if (e.get("message").asString().contains("paused")) {
                return e;
            }
            assertThat(e.get("code").asString()).isEqualTo("UPSTREAM_ERROR");
        }
        throw new AssertionError("the tool's breaker did not open in 10 calls");
    }

    @Test
    void withCountToolErrorsAToolThatKeepsFailingInItselfIsPausedAlone() {
        start(EAGER.withCountToolErrors(true));
        callBrokenUntilPaused();
        int reached = answered.get();
        assertThat(error(client.callTool("broken", Json.object())).get("message").asString()).contains("paused");
        assertThat(answered.get()).as("a paused tool's calls stay here").isEqualTo(reached);
        assertThat(client.callTool("ok", Json.object()).text()).as("the server's other tools work").isEqualTo("fine");
        assertThat(client.callTool("query", Json.object().put("sql", "SELECT 1")).isError()).isFalse();
        assertThat(client.listTools()).as("and so do its other requests").isNotEmpty();
    }

    @Test
    void withCountToolErrorsTwoHundredRefusalsInPlainWordsStillPauseNothing() {
        // Only the isError refusals: with the opt-in, codes read as the caller's never count.
        start(EAGER.withCountToolErrors(true));
        for (int i = 0; i < 200; i++) {
            ToolCallResult r = client.callTool("create_invoice", Json.object().put("mistake", i % 4));
            assertThat(error(r).get("message").asString()).as("call %d", i).doesNotContain("paused");
            assertThat(error(r).get("retryable").asBoolean()).as("call %d: %s", i, r.text()).isFalse();
        }
        ToolCallResult good = client.callTool("create_invoice", Json.object());
        assertThat(good.isError()).as(good.text()).isFalse();
    }

    @Test
    void aPausedToolsRefusalNamesItAndSaysUntilWhen() {
        start(EAGER.withCountToolErrors(true));
        JsonNode paused = callBrokenUntilPaused();
        assertThat(paused.get("code").asString()).isEqualTo("UPSTREAM_ERROR");
        assertThat(paused.get("retryable").asBoolean()).isTrue();
        assertThat(paused.get("message").asString()).startsWith("The tool broken is paused until ")
                .contains("it failed 2 of its last 2 calls");
        assertThat(paused.get("retryAfterMs").asLong()).isBetween(Duration.ofMinutes(59).toMillis(),
                Duration.ofHours(1).toMillis());
    }
}
