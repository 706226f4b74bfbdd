package dev.warden.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.incident.IncidentSink;
import dev.warden.core.json.Json;
import dev.warden.gateway.config.Redis;
import dev.warden.http.server.McpHttpServer;
import dev.warden.server.McpServer;
import dev.warden.server.ToolResult;
import dev.warden.server.ToolSpec;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Two replicas of one server (warden-server over Streamable HTTP) signing 2026-07-28 request states
 * with the key they share on Redis: a round answered by one replica goes on at the other, as it
 * must behind a round-robin balancer. A replica with a key of its own refuses the state.
 */
class SharedRequestStatesAcrossServersTest {

    private static final String META = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
            + "\"io.modelcontextprotocol/clientCapabilities\":{\"elicitation\":{}}}";
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private Replicas replicas;
    private final List<McpHttpServer> servers = new ArrayList<>();

    @BeforeEach
    void redis() throws Exception {
        replicas = new Replicas();
    }

    @AfterEach
    void stop() throws Exception {
        servers.forEach(McpHttpServer::close);
        replicas.close();
    }

    /** A replica: the same tools, signing with {@code key}. */
    private URI replica(byte[] key) throws Exception {
        McpServer server = McpServer.builder("orders", "1.0.0").incidents(IncidentSink.all()).requestStateKey(key)
                .tool(ToolSpec.builder("greet").handler(call -> {
                    ObjectNode ask = Json.object().put("message", "Your name?");
                    ObjectNode name = call.context().input("user_name", "elicitation/create", ask);
                    ObjectNode ask2 = Json.object().put("message", "Your colour?");
                    ObjectNode color = call.context().input("color", "elicitation/create", ask2);
                    return ToolResult.text(name.at("/content/name").asString() + " likes "
                            + color.at("/content/color").asString());
                }).build())
                .build();
        McpHttpServer http = McpHttpServer.builder().onSession(server::connect).build().start();
        servers.add(http);
        return http.endpoint();
    }

    private URI replicaOnRedis() throws Exception {
        return replica(replicas.replica("prod", Redis.WhenDown.OPEN, Clock.systemUTC()).requestStateKey());
    }

    private static JsonNode greet(URI replica, int id, String extra) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(replica)
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .header("MCP-Protocol-Version", "2026-07-28").header("Mcp-Method", "tools/call")
                .header("Mcp-Name", "greet")
                .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":" + id
                        + ",\"method\":\"tools/call\",\"params\":{\"name\":\"greet\",\"arguments\":{}" + extra + ","
                        + META + "}}")).build();
        return Json.mapper().readTree(HTTP.send(request, HttpResponse.BodyHandlers.ofString()).body());
    }

    private static String answer(String key, String content, JsonNode round) {
        return ",\"inputResponses\":{\"" + key + "\":{\"action\":\"accept\",\"content\":" + content + "}},"
                + "\"requestState\":\"" + round.at("/result/requestState").asString() + "\"";
    }

    @Test
    void aRoundStartedOnOneReplicaGoesOnAtTheOther() throws Exception {
        URI a = replicaOnRedis();
        URI b = replicaOnRedis();
        JsonNode round1 = greet(a, 1, "");
        assertThat(round1.at("/result/resultType").asString()).isEqualTo("input_required");
        JsonNode round2 = greet(b, 2, answer("user_name", "{\"name\":\"Ada\"}", round1));
        assertThat(round2.at("/result/resultType").asString()).as(round2.toString()).isEqualTo("input_required");
        JsonNode done = greet(a, 3, answer("color", "{\"color\":\"blue\"}", round2));
        assertThat(done.at("/result/content/0/text").asString()).as(done.toString()).isEqualTo("Ada likes blue");
    }

    @Test
    void aReplicaWithAKeyOfItsOwnRefusesTheState() throws Exception {
        URI shared = replicaOnRedis();
        byte[] own = new byte[32];
        new java.security.SecureRandom().nextBytes(own);
        URI alone = replica(own);
        JsonNode round1 = greet(shared, 1, "");
        JsonNode refused = greet(alone, 2, answer("user_name", "{\"name\":\"Ada\"}", round1));
        assertThat(refused.at("/error/code").asInt()).as(refused.toString()).isEqualTo(-32602);
    }
}
