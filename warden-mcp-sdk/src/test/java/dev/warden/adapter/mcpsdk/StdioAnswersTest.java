package dev.warden.adapter.mcpsdk;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.incident.Incident;
import dev.warden.core.json.Json;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpAsyncServer;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

/**
 * A guarded async server on the SDK's own stdio transport, driven frame by frame as a client
 * would: every request gets exactly one answer with its id, and the SDK's own refusals (params
 * that are no object, an unknown tool) come back as the caller's, without the caller's input.
 */
// The records' constructors that 2.0 and 2.1 both have (2.1 deprecates them for builders 2.0 lacks).
@SuppressWarnings("deprecation")
class StdioAnswersTest {

    private final List<Incident> incidents = new CopyOnWriteArrayList<>();
    // A fixed clock: refusals of one kind within the boundary's window share an incident.
    private final WardenGuard guard = WardenGuard.builder().incidents(incidents::add)
            .clock(Clock.fixed(Instant.parse("2026-11-29T06:00:00Z"), ZoneOffset.UTC)).build();
    private final LinkedBlockingQueue<JsonNode> frames = new LinkedBlockingQueue<>();
    private PipedOutputStream toServer;
    private McpAsyncServer server;

    @BeforeEach
    void serve() throws Exception {
        toServer = new PipedOutputStream();
        PipedInputStream serverIn = new PipedInputStream(toServer, 1 << 16);
        PipedInputStream fromServer = new PipedInputStream(1 << 16);
        PipedOutputStream serverOut = new PipedOutputStream(fromServer);
        McpJsonMapper mapper = guard.jsonMapper(McpJsonDefaults.getMapper());
        McpSchema.Tool empty = McpSchema.Tool.builder().name("empty").inputSchema(Map.of("type", "object")).build();
        McpSchema.Prompt prompt = new McpSchema.Prompt("quiet", "answers nothing", List.of());
        server = McpServer.async(new StdioServerTransportProvider(mapper, serverIn, serverOut)).jsonMapper(mapper)
                .serverInfo("stdio", "1")
                .capabilities(McpSchema.ServerCapabilities.builder().tools(false).prompts(false).build())
                .tools(guard.wrap(List.of(new McpServerFeatures.AsyncToolSpecification(empty, (x, r) -> Mono.empty()))))
                .prompts(guard.wrap(List.of(new McpServerFeatures.AsyncPromptSpecification(prompt,
                        (x, r) -> Mono.empty()))))
                .build();
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(fromServer, StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    frames.add(Json.mapper().readTree(line));
                }
            } catch (IOException e) {
                // the server closed its side
            }
        });
        reader.setDaemon(true);
        reader.start();
        send("{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                + "\"capabilities\":{},\"clientInfo\":{\"name\":\"test\",\"version\":\"1\"}}}");
        JsonNode initialized = frames.poll(60, TimeUnit.SECONDS);
        assertThat(initialized).as("initialize's answer").isNotNull();
        assertThat(initialized.path("result").isObject()).isTrue();
        send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
    }

    @AfterEach
    void stop() {
        server.closeGracefully().block();
    }

    @Test
    void anAsyncToolOrPromptThatCompletesEmptyIsAnsweredWithWardensErrorAndARef() throws Exception {
        send(call(1, "{\"name\":\"empty\",\"arguments\":{}}"));
        send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"prompts/get\",\"params\":{\"name\":\"quiet\"}}");

        List<JsonNode> answers = answers(2);
        JsonNode tool = byId(answers, 1);
        assertThat(tool.path("result").path("isError").asBoolean()).isTrue();
        JsonNode error = Json.mapper().readTree(tool.path("result").path("content").get(0).path("text").asString())
                .path("error");
        assertThat(error.path("code").asString()).isEqualTo("INTERNAL_ERROR");
        assertThat(error.path("ref").asString()).startsWith("ref_");
        JsonNode prompt = byId(answers, 2).path("error");
        assertThat(prompt.path("code").asInt()).isEqualTo(-32603);
        assertThat(prompt.path("data").path("code").asString()).isEqualTo("INTERNAL_ERROR");
        assertThat(incidents).hasSize(2);
    }

    @Test
    void argumentsThatAreNoObjectAreTheCallersInvalidParams() throws Exception {
        send(call(3, "{\"name\":\"empty\",\"arguments\":\"oops\"}"));
        send(call(4, "{\"name\":\"empty\",\"arguments\":[\"oops\"]}"));

        List<JsonNode> answers = answers(2);
        for (int id : new int[] {3, 4}) {
            assertThat(refusal(byId(answers, id), "Invalid params", "VALIDATION_ERROR"))
                    .doesNotContain("oops", "Cannot", "jackson", "LinkedHashMap");
        }
    }

    @Test
    void anUnknownToolIsNotFoundAndItsNameIsNotRepeated() throws Exception {
        send(call(5, "{\"name\":\"no_such_tool_probe\",\"arguments\":{}}"));
        send(call(6, "{\"name\":\"no_such_tool_probe\",\"arguments\":{}}"));

        List<JsonNode> answers = answers(2);
        for (int id : new int[] {5, 6}) {
            assertThat(refusal(byId(answers, id), "Unknown tool", "NOT_FOUND"))
                    .doesNotContain("no_such_tool_probe", "invalid_tool_name");
        }
        // A flood of one refusal is one incident, as on Warden's own server.
        assertThat(byId(answers, 5).path("error").path("data").path("ref"))
                .isEqualTo(byId(answers, 6).path("error").path("data").path("ref"));
        assertThat(incidents).hasSize(1);
    }

    /** The answer's -32602 error, with its fixed message and Warden's code and ref: the error as text. */
    private static String refusal(JsonNode answer, String message, String code) {
        JsonNode error = answer.path("error");
        assertThat(error.path("code").asInt()).as("%s", answer).isEqualTo(-32602);
        assertThat(error.path("message").asString()).isEqualTo(message);
        assertThat(error.path("data").path("code").asString()).isEqualTo(code);
        assertThat(error.path("data").path("ref").asString()).startsWith("ref_");
        return error.toString();
    }

    private static String call(int id, String params) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":" + params + "}";
    }

    private void send(String frame) throws IOException {
        toServer.write((frame + "\n").getBytes(StandardCharsets.UTF_8));
        toServer.flush();
    }

    /**
     * The next {@code count} answers, then a ping's: the stdio transport writes in order, so
     * nothing else answered before the ping (no second answer to any id). The wait is a bound for
     * a hung server, not a measure of speed.
     */
    private List<JsonNode> answers(int count) throws Exception {
        List<JsonNode> answers = new ArrayList<>();
        while (answers.size() < count) {
            JsonNode frame = frames.poll(60, TimeUnit.SECONDS);
            assertThat(frame).as("answer %d of %d, after %s", answers.size() + 1, count, answers).isNotNull();
            if (frame.has("id")) {
                answers.add(frame);
            }
        }
        send("{\"jsonrpc\":\"2.0\",\"id\":\"fence\",\"method\":\"ping\"}");
        for (JsonNode frame = frames.poll(60, TimeUnit.SECONDS); ; frame = frames.poll(60, TimeUnit.SECONDS)) {
            assertThat(frame).as("the ping's answer").isNotNull();
            if (frame.path("id").asString().equals("fence")) {
                break;
            }
            assertThat(frame.has("id")).as("a second answer: %s", frame).isFalse();
        }
        assertThat(answers.stream().map(a -> a.path("id").toString()).distinct()).hasSize(count);
        return answers;
    }

    private static JsonNode byId(List<JsonNode> answers, int id) {
        return answers.stream().filter(a -> a.path("id").asInt(-1) == id).findFirst()
                .orElseThrow(() -> new AssertionError("no answer to id " + id + " in " + answers));
    }
}
