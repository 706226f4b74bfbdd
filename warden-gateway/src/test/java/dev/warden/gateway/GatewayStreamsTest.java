package dev.warden.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.client.McpClient;
import dev.warden.core.incident.IncidentSink;
import dev.warden.core.json.Json;
import dev.warden.core.jsonrpc.RequestId;
import dev.warden.core.transport.InMemoryTransport;
import dev.warden.core.transport.Route;
import dev.warden.core.transport.Transport;
import dev.warden.gateway.config.Upstream;
import dev.warden.server.McpServer;
import dev.warden.server.ToolResult;
import dev.warden.server.ToolSpec;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Where the gateway puts what an upstream asks or says in the middle of a client's call: on that
 * call's stream. Over Streamable HTTP anything not tied to a request goes to the client's GET
 * stream, which a client may not have opened yet (the TypeScript SDK opens it in the background
 * after initializing) and then never sees; the call's own stream is one it is reading.
 */
class GatewayStreamsTest {

    private final McpServer upstream = McpServer.builder("asking", "1.0.0").incidents(IncidentSink.all())
            .tool(ToolSpec.builder("elicit").handler(call -> {
                ObjectNode params = Json.object();
                params.put("message", "your name?");
                params.putObject("requestedSchema").put("type", "object").putObject("properties")
                        .putObject("name").put("type", "string");
                ObjectNode answer = call.context().requestClient("elicitation/create", params);
                return ToolResult.text(answer.path("content").path("name").asString());
            }).build())
            .tool(ToolSpec.builder("log").handler(call -> {
                call.context().log(dev.warden.core.mcp.Logging.Level.WARNING, "said mid-call");
                return ToolResult.text("done");
            }).build())
            .build();
    private final Gateway gateway = Gateway.builder()
            .upstream(Upstream.builder("asking", () -> {
                InMemoryTransport.Pair pair = InMemoryTransport.pair();
                upstream.connect(pair.right());
                return pair.left();
            }).timeout(Duration.ofSeconds(30)).build())
            .incidents(IncidentSink.all()).build();
    /** Every frame the gateway sent the client, with the route it gave it. */
    private final List<Sent> sent = new CopyOnWriteArrayList<>();
    private final McpClient client = McpClient.builder("ada", "1")
            .protocolVersion(dev.warden.core.mcp.ProtocolVersion.V2025_11_25)
            .requestTimeout(Duration.ofSeconds(30))
            .onElicitation(params -> {
                ObjectNode result = Json.object().put("action", "accept");
                result.putObject("content").put("name", "Ada");
                return result;
            })
            .connect(() -> {
                InMemoryTransport.Pair pair = InMemoryTransport.pair();
                gateway.connect(new Recording(pair.right(), sent));
                return pair.left();
            });

    private record Sent(JsonNode frame, Route route) {
    }

    /** The gateway's side of the client connection, noting the route of each frame it sends. */
    private record Recording(Transport inner, List<Sent> sent) implements Transport {

        @Override
        public void start(Listener listener) {
            inner.start(listener);
        }

        @Override
        public void send(String frame) {
            send(frame, Route.UNRELATED);
        }

        @Override
        public void send(String frame, Route route) {
            sent.add(new Sent(Json.mapper().readTree(frame), route));
            inner.send(frame, route);
        }

        @Override
        public void close() {
            inner.close();
        }
    }

    @AfterEach
    void stop() {
        client.close();
        gateway.close();
    }

    /** The id the gateway answered the client's call to {@code tool} with: the call's own request id. */
    private RequestId callId(String tool) {
        return sent.stream().filter(s -> s.route() instanceof Route.Reply
                        && s.frame().path("result").path("content").path(0).path("text").isString()
                        && s.frame().has("id"))
                .map(s -> ((Route.Reply) s.route()).request()).reduce((a, b) -> b).orElseThrow();
    }

    @Test
    void anUpstreamsQuestionMidCallTravelsOnTheStreamOfTheCallThatCausedIt() throws Exception {
        assertThat(client.callTool("elicit", Json.object()).text()).isEqualTo("Ada");

        Sent question = sent.stream().filter(s -> "elicitation/create".equals(s.frame().path("method").asString()))
                .findFirst().orElseThrow();
        assertThat(question.route()).isEqualTo(Route.during(callId("elicit")));
    }

    @Test
    void anUpstreamsLogMessageMidCallTravelsOnTheStreamOfTheCall() throws Exception {
        client.request("logging/setLevel", Json.object().put("level", "debug"));
        assertThat(client.callTool("log", Json.object()).text()).isEqualTo("done");

        Sent log = sent.stream().filter(s -> "notifications/message".equals(s.frame().path("method").asString()))
                .findFirst().orElseThrow();
        assertThat(log.frame().at("/params/data").asString()).isEqualTo("said mid-call");
        assertThat(log.route()).isEqualTo(Route.during(callId("log")));
    }
}
