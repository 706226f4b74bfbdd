package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.cluster.InProcessReplicas;
import dev.warden.core.json.Json;
import dev.warden.gateway.Gateway;
import dev.warden.gateway.config.Upstream;
import dev.warden.http.server.McpHttpServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Two gateway replicas over Streamable HTTP, each in front of server-everything (its own process),
 * joined by an in-process bus (the Redis bus joins separate processes the same way): a 2026-07-28
 * client whose requests alternate between them, as behind a round-robin balancer, runs the whole
 * stateless workload; its elicitation round lands on the replica that did not park the call and is
 * answered by the one that did. When that replica is gone, the round gets a retryable error.
 */
class GatewayReplicasParkedCallsEndToEndTest {

    private final InProcessReplicas hub = InProcessReplicas.hub();
    private final List<AutoCloseable> running = new ArrayList<>();

    /** A replica: a gateway in front of server-everything over stdio, serving HTTP on a free loopback port. */
    private String replica(String id) throws Exception {
        Gateway gateway = Gateway.builder()
                .upstream(Upstream.stdio("everything", List.of(Processes.NODE, WardenClientWithServerEverythingTest.SERVER,
                        "stdio")))
                .replicas(hub.join(id)).build();
        running.add(gateway);
        McpHttpServer server = McpHttpServer.builder().host("127.0.0.1").port(0).onSession(gateway::connect)
                .boundary(gateway.boundary()).build().start();
        running.add(0, server);
        return server.endpoint().toString();
    }

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable c : running) {
            c.close();
        }
    }

    @Test
    void theStatelessWorkloadRunsWithItsRequestsAlternatingBetweenTwoReplicas() throws Exception {
        String a = replica("a");
        String b = replica("b");

        Processes.Result result = Processes.run(Processes.node("stateless-workload.mjs", a, b));

        assertThat(result.exitCode()).as(result.stderr()).isZero();
        JsonNode run = Json.mapper().readTree(result.stdout());
        assertThat(run.path("ok").asBoolean()).as(run.toString()).isTrue();
        assertThat(run.at("/steps/elicitation/replicas").toString()).as("the answered round reached the other replica")
                .isEqualTo("[0,1]");
        assertThat(run.path("unknownRequestState").asInt()).isZero();
        assertThat(run.path("sessionNotFound").asInt()).isZero();
    }

    @Test
    void aRoundWhoseReplicaIsGoneGetsARetryableErrorWithItsOwnId() throws Exception {
        String a = replica("a");
        String b = replica("b");
        JsonNode parked = post(a, 1, "").path("result");
        assertThat(parked.path("resultType").asString()).as(parked.toString()).isEqualTo("input_required");
        hub.stop("a");

        String key = parked.path("inputRequests").propertyNames().iterator().next();
        JsonNode answer = post(b, 2, ",\"requestState\":" + parked.path("requestState") + ",\"inputResponses\":{\""
                + key + "\":{\"action\":\"decline\"}}");

        assertThat(answer.path("id").asInt()).isEqualTo(2);
        assertThat(answer.at("/error/code").asInt()).isEqualTo(-32603);
        assertThat(answer.at("/error/message").asString()).isEqualTo("The replica holding this call stopped; call the tool again.");
        assertThat(answer.at("/error/data/retryable").asBoolean()).isTrue();
        assertThat(answer.at("/error/data/code").asString()).isEqualTo("UPSTREAM_ERROR");
    }

    /** A round of server-everything's elicitation tool, as a 2026-07-28 client sends it over HTTP. */
    private static JsonNode post(String url, int id, String more) throws Exception {
        String body = "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{"
                + "\"name\":\"trigger-elicitation-request\",\"arguments\":{}" + more + ",\"_meta\":{"
                + "\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
                + "\"io.modelcontextprotocol/clientCapabilities\":{\"elicitation\":{}}}}}";
        HttpRequest request = HttpRequest.newBuilder(URI.create(url)).POST(HttpRequest.BodyPublishers.ofString(body))
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .header("MCP-Protocol-Version", "2026-07-28").header("Mcp-Method", "tools/call")
                .header("Mcp-Name", "trigger-elicitation-request").build();
        try (HttpClient client = HttpClient.newHttpClient()) {
            HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
            assertThat(response.headers().firstValue("Content-Type").orElse("")).as(response.body())
                    .startsWith("application/json");
            return Json.mapper().readTree(response.body());
        }
    }
}
