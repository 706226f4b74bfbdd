package dev.warden.adapter.springai;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.incident.Incident;
import dev.warden.core.incident.IncidentSink;
import dev.warden.core.json.Json;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson3.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.ai.mcp.customizer.McpSyncServerCustomizer;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The one customizer bean Spring AI's server takes gives the server the guard's mapper: applied to a
 * real SDK server (its stdio transport, driven frame by frame), a tools/call whose arguments are no
 * object is the caller's -32602 with Warden's VALIDATION_ERROR and a ref, whether the customizer is
 * the application's (or Spring AI's servlet one) wrapped, or Warden's where there is none.
 */
// Tool.builder() (2.0's way; 2.1 deprecates it).
@SuppressWarnings("deprecation")
// A hang guard, not a speed check: an unanswered request would block readLine() for ever.
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ServerCustomizersTest {

    private final List<Incident> incidents = new CopyOnWriteArrayList<>();
    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(WardenSpringAiAutoConfiguration.class))
            .withBean(IncidentSink.class, () -> incidents::add)
            .withBean("mcpServerJsonMapper", JsonMapper.class, JsonMapper::new);

    @Test
    void withoutACustomizerWardensOwnGivesTheServerTheGuardsMapper() {
        runner.run(context -> assertThat(oops(context).path("error")
                .path("data").path("code").asString()).isEqualTo("VALIDATION_ERROR"));
    }

    @Test
    void theApplicationsCustomizerIsKeptAndWrapped() {
        List<String> ran = new CopyOnWriteArrayList<>();
        runner.withBean("own", McpSyncServerCustomizer.class, () -> spec -> ran.add("own"))
                .run(context -> {
                    JsonNode error = oops(context).path("error");
                    assertThat(error.path("code").asInt()).as("%s", error).isEqualTo(-32602);
                    assertThat(error.path("message").asString()).isEqualTo("Invalid params");
                    assertThat(error.path("data").path("code").asString()).isEqualTo("VALIDATION_ERROR");
                    assertThat(error.path("data").path("ref").asString()).startsWith("ref_");
                    assertThat(error.toString()).doesNotContain("oops", "Cannot", "jackson", "LinkedHashMap");
                    assertThat(ran).containsExactly("own");
                });
    }

    /** The answer a server built with {@code customizer} gives a tools/call with {@code "arguments":"oops"}. */
    private static JsonNode oops(ApplicationContext context) throws IOException {
        McpSyncServerCustomizer customizer = context.getBean(McpSyncServerCustomizer.class);
        // What Spring AI's transports write with: its JsonMapper bean, given Warden's module.
        McpJsonMapper transportMapper = new JacksonMcpJsonMapper(context.getBean(JsonMapper.class));
        PipedOutputStream toServer = new PipedOutputStream();
        PipedInputStream serverIn = new PipedInputStream(toServer, 1 << 16);
        PipedInputStream fromServer = new PipedInputStream(1 << 16);
        McpSchema.Tool tool = McpSchema.Tool.builder().name("t").inputSchema(Map.of("type", "object")).build();
        McpServer.SyncSpecification<?> spec = McpServer.sync(new StdioServerTransportProvider(
                transportMapper, serverIn, new PipedOutputStream(fromServer)))
                .serverInfo("stdio", "1").capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
                .tools(new McpServerFeatures.SyncToolSpecification(tool,
                        (x, r) -> McpSchema.CallToolResult.builder().build()));
        customizer.customize(spec);
        McpSyncServer server = spec.build();
        try (BufferedReader answers = new BufferedReader(new InputStreamReader(fromServer, StandardCharsets.UTF_8))) {
            send(toServer, "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{"
                    + "\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
                    + "\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}");
            assertThat(Json.mapper().readTree(answers.readLine()).path("id").asInt()).isZero();
            send(toServer, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
            send(toServer, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\","
                    + "\"params\":{\"name\":\"t\",\"arguments\":\"oops\"}}");
            JsonNode answer = Json.mapper().readTree(answers.readLine());
            assertThat(answer.path("id").asInt()).as("%s", answer).isEqualTo(3);
            return answer;
        } finally {
            server.closeGracefully();
        }
    }

    private static void send(PipedOutputStream toServer, String frame) throws IOException {
        toServer.write((frame + "\n").getBytes(StandardCharsets.UTF_8));
        toServer.flush();
    }
}
