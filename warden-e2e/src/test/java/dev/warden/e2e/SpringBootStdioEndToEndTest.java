package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The stdio error contract on the Spring Boot sample started as a desktop client starts it
 * ({@code java -jar app.jar --warden.mcp.stdio.enabled=true}): stdout carries JSON-RPC and nothing
 * else from its first byte (no banner, no log line: those go to stderr); every request gets exactly
 * one answer with its own id, a line that is not JSON gets -32700 with a null id, an unknown method
 * -32601, an unknown tool -32602 that does not repeat its name, a failing tool an {@code isError}
 * result with a code and a ref and nothing of the exception; and the application exits when stdin ends.
 */
class SpringBootStdioEndToEndTest {

    private static final Duration GUARD = Duration.ofMinutes(2);

    @TempDir
    Path incidents;

    @Test
    void stdoutIsTheProtocolAndEveryRequestGetsOneAnswer() throws Exception {
        LinePeer app = SpringSample.start(incidents, "--warden.mcp.stdio.enabled=true");
        try {
            app.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                    + "\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"e2e\",\"version\":\"1\"}}}");
            // The first line on stdout is the answer: no banner or log line came before it.
            JsonNode init = next(app);
            assertThat(init.path("id").asInt()).isEqualTo(1);
            assertThat(init.path("result").path("serverInfo").path("name").asString()).isEqualTo("warden-sample");
            app.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");

            app.send("{not json");
            JsonNode parse = next(app);
            assertThat(parse.path("id").isNull()).as(parse.toString()).isTrue();
            assertThat(parse.path("error").path("code").asInt()).isEqualTo(-32700);

            app.send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"no/such/method\"}");
            JsonNode unknownMethod = next(app);
            assertThat(unknownMethod.path("id").asInt()).isEqualTo(2);
            assertThat(unknownMethod.path("error").path("code").asInt()).isEqualTo(-32601);

            app.send(call(3, "drop_tables_probe_tool", "{}"));
            JsonNode unknownTool = next(app);
            assertThat(unknownTool.path("id").asInt()).isEqualTo(3);
            assertThat(unknownTool.path("error").path("code").asInt()).isEqualTo(-32602);
            assertThat(unknownTool.toString()).doesNotContain("drop_tables_probe_tool");

            app.send(call(4, "cancel_order", "{\"id\":\"o-3\"}"));
            JsonNode failed = next(app);
            assertThat(failed.path("id").asInt()).isEqualTo(4);
            assertThat(failed.path("result").path("isError").asBoolean()).isTrue();
            JsonNode error = failed.path("result").path("structuredContent").path("error");
            assertThat(error.path("code").asString()).isEqualTo("INTERNAL_ERROR");
            assertThat(error.path("ref").asString()).startsWith("ref_");
            assertThat(failed.toString()).doesNotContain("db.internal").doesNotContain("orders_admin")
                    .doesNotContain("Exception");

            app.send(call(5, "cancel_order", "{\"id\":\"not-an-order\"}"));
            JsonNode invalid = next(app);
            assertThat(invalid.path("id").asInt()).isEqualTo(5);
            JsonNode violation = invalid.path("result").path("structuredContent").path("error");
            assertThat(violation.path("code").asString()).isEqualTo("VALIDATION_ERROR");
            assertThat(violation.path("violations").get(0).path("pointer").asString()).isEqualTo("/id");
            assertThat(invalid.toString()).doesNotContain("not-an-order");

            app.close();                   // stdin ends: the application stops
            assertThat(app.awaitExit(GUARD)).isZero();
            String stderr = Files.readString(app.stderr);
            assertThat(stderr).as("the logs went to stderr").contains("Started SampleApplication");
        } finally {
            app.destroy();
        }
    }

    private static String call(int id, String tool, String arguments) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool
                + "\",\"arguments\":" + arguments + "}}";
    }

    /** The next stdout line, which must be a JSON-RPC message. */
    private static JsonNode next(LinePeer app) throws Exception {
        String line = app.nextLine(GUARD);
        JsonNode message = Json.mapper().readTree(line);
        assertThat(message.path("jsonrpc").asString()).as("a JSON-RPC message on stdout: %s", line).isEqualTo("2.0");
        return message;
    }
}
