package dev.warden.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.incident.IncidentSink;
import dev.warden.core.json.Json;
import dev.warden.core.transport.InMemoryTransport;
import dev.warden.gateway.Gateway;
import dev.warden.gateway.config.Upstream;
import dev.warden.http.server.McpHttpServer;
import dev.warden.http.server.SessionKeys;
import dev.warden.server.McpServer;
import dev.warden.server.ToolResult;
import dev.warden.server.ToolSpec;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Two gateway replicas sharing session keys, each with its own connection to the same server: a
 * session initialized on one is served by the other, which knows what the client declared (so the
 * server's elicitation reaches the client through it, as it would through the first).
 */
class PortableGatewaySessionsTest {

    private static final SessionKeys KEYS = SessionKeys.parse(SessionKeys.newKeyLine("k1"));
    private static final String INIT = """
            {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25",\
            "capabilities":{"elicitation":{}},"clientInfo":{"name":"portable","version":"1"}}}""";

    private final McpServer server = McpServer.builder("orders", "1").incidents(IncidentSink.all())
            .tool(ToolSpec.builder("confirm").handler(call -> {
                var params = Json.object().put("message", "Ship order 7?");
                params.putObject("requestedSchema").put("type", "object").putObject("properties")
                        .putObject("ok").put("type", "boolean");
                JsonNode answer = call.context().requestClient("elicitation/create", params);
                return ToolResult.text("client said " + answer.path("action").asString("nothing"));
            }).build())
            .build();
    private final List<AutoCloseable> running = new ArrayList<>();
    private final HttpClient client = HttpClient.newHttpClient();

    /** A replica: a gateway in front of the server, behind an HTTP endpoint with the shared keys. */
    private URI replica() throws Exception {
        Gateway gateway = Gateway.builder().incidents(IncidentSink.all()).upstream(Upstream.of("orders", () -> {
            InMemoryTransport.Pair pair = InMemoryTransport.pair();
            server.connect(pair.right());
            return pair.left();
        })).build();
        McpHttpServer http = McpHttpServer.builder().portableSessions(KEYS, Duration.ofHours(1))
                .onSession(gateway::connect).boundary(gateway.boundary()).build().start();
        running.add(http);
        running.add(gateway);
        return http.endpoint();
    }

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable c : running) {
            c.close();
        }
        client.close();
    }

    private HttpRequest.Builder post(URI endpoint, Optional<String> session, String body) {
        HttpRequest.Builder b = HttpRequest.newBuilder(endpoint).timeout(Duration.ofSeconds(20))
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        session.ifPresent(s -> b.header("Mcp-Session-Id", s).header("MCP-Protocol-Version", "2025-11-25"));
        return b;
    }

    /** The next message on an SSE body, skipping the priming event and comments. */
    private static JsonNode next(Iterator<String> lines) {
        while (lines.hasNext()) {
            String line = lines.next();
            if (line.startsWith("data:") && !line.substring(5).isBlank()) {
                return Json.mapper().readTree(line.substring(5).trim());
            }
        }
        throw new AssertionError("the stream ended without a message");
    }

    @Test
    void aCallOnTheOtherReplicaAsksTheClientWhatTheServerAsksAndIsAnswered() throws Exception {
        URI a = replica();
        URI b = replica();
        HttpResponse<String> opened = client.send(post(a, Optional.empty(), INIT).build(),
                HttpResponse.BodyHandlers.ofString());
        String session = opened.headers().firstValue("Mcp-Session-Id").orElseThrow();
        client.send(post(a, Optional.of(session), "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}")
                .build(), HttpResponse.BodyHandlers.ofString());

        HttpResponse<Stream<String>> call = client.send(post(b, Optional.of(session), """
                {"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"confirm","arguments":{}}}""")
                .build(), HttpResponse.BodyHandlers.ofLines());
        assertThat(call.statusCode()).isEqualTo(200);
        Iterator<String> lines = call.body().iterator();
        JsonNode question = next(lines);
        assertThat(question.path("method").asString()).isEqualTo("elicitation/create");
        var reply = Json.object().put("jsonrpc", "2.0");
        reply.set("id", question.get("id"));
        reply.putObject("result").put("action", "accept").putObject("content").put("ok", true);
        HttpResponse<String> answered = client.send(post(b, Optional.of(session), Json.write(reply)).build(),
                HttpResponse.BodyHandlers.ofString());
        JsonNode result = next(lines);

        assertThat(answered.statusCode()).isEqualTo(202);
        assertThat(result.get("id").asInt()).isEqualTo(2);
        assertThat(result.at("/result/content/0/text").asString()).isEqualTo("client said accept");
    }
}
