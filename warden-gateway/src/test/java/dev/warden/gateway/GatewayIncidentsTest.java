package dev.warden.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.warden.client.McpClient;
import dev.warden.client.ReconnectPolicy;
import dev.warden.client.ToolCallResult;
import dev.warden.core.error.PeerErrorException;
import dev.warden.core.incident.Incident;
import dev.warden.core.incident.IncidentSink;
import dev.warden.core.json.Json;
import dev.warden.core.mcp.ProtocolVersion;
import dev.warden.core.transport.InMemoryTransport;
import dev.warden.gateway.config.Limits;
import dev.warden.gateway.config.Upstream;
import dev.warden.server.McpServer;
import dev.warden.server.ToolResult;
import dev.warden.server.ToolSpec;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * What the operator finds behind a ref: the tool or method named even when the client is not
 * told, the request's arguments (sanitized), and why a call failed or was refused.
 */
class GatewayIncidentsTest {

    private final List<Incident> incidents = new CopyOnWriteArrayList<>();
    private final McpServer server = McpServer.builder("db", "1.0.0").incidents(IncidentSink.all())
            .tool(ToolSpec.builder("query").handler(c -> ToolResult.text("never")).build())
            .tool(ToolSpec.builder("broken").handler(c -> ToolResult.text("never")).build())
            .tool(ToolSpec.builder("missing").handler(c -> ToolResult.text("never")).build())
            .build();
    private Gateway gateway;
    private McpClient client;

    private void start(Limits.Breaker breaker) {
        Upstream u = Upstream.builder("db", () -> {
            InMemoryTransport.Pair pair = InMemoryTransport.pair();
            server.connect(pair.right());
            return new AnsweringCalls(pair.left(), Map.of(
                    "query", a -> AnsweringCalls.error(-32603, "relation \"orders\" does not exist"),
                    "broken", a -> AnsweringCalls.error(-32603, "Cannot read properties of undefined"),
                    "missing", a -> AnsweringCalls.error(-32603, "Unknown tool: summarize_probe")),
                    new AtomicInteger());
        }).limits(Limits.ofDefaults().withBreaker(breaker)).reconnect(ReconnectPolicy.none()).build();
        gateway = Gateway.builder().upstream(u).incidents(incidents::add).build();
        client = McpClient.builder("model", "1").protocolVersion(ProtocolVersion.latestSessionBased())
                .connect(ViaGateway.to(gateway));
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

    private Incident incident(String ref) {
        return incidents.stream().filter(i -> i.ref().value().equals(ref)).findFirst().orElseThrow(
                () -> new AssertionError("no incident for " + ref + " among " + incidents));
    }

    private static String refOf(ToolCallResult result) {
        return Json.mapper().readTree(result.text()).at("/error/ref").asString();
    }

    @Test
    void anUnknownToolsIncidentNamesItThoughTheClientIsNotTold() {
        start(Limits.Breaker.ofDefaults());
        assertThatThrownBy(() -> client.callTool("drop_all_tables", Json.object().put("confirm", "yes")))
                .isInstanceOfSatisfying(PeerErrorException.class, e -> {
                    assertThat(e.error().message()).isEqualTo("Unknown tool");
                    assertThat(e.error().toString()).doesNotContain("drop_all_tables");
                    Incident i = incident(e.error().data().orElseThrow().path("ref").asString());
                    assertThat(i.tool()).contains("drop_all_tables");
                    assertThat(i.arguments()).hasValueSatisfying(a -> assertThat(a).contains("confirm"));
                    assertThat(i.reason()).isPresent();
                });
    }

    @Test
    void anOlderSdksInternalErrorSayingUnknownToolIsAnUnknownTool() {
        start(Limits.Breaker.ofDefaults());
        // server-postgres 0.6.2 answers a tool it lacks with -32603 "Unknown tool: <name>".
        assertThatThrownBy(() -> client.callTool("missing", Json.object()))
                .isInstanceOfSatisfying(PeerErrorException.class, e -> {
                    assertThat(e.error().code()).isEqualTo(-32602);
                    assertThat(e.error().message()).isEqualTo("Unknown tool");
                    assertThat(e.error().toString()).doesNotContain("summarize_probe");
                    assertThat(incident(e.error().data().orElseThrow().path("ref").asString()).tool())
                            .contains("missing");
                });
    }

    @Test
    void aFailuresIncidentKeepsTheArgumentsSanitized() {
        start(Limits.Breaker.ofDefaults());
        ToolCallResult failed = client.callTool("query", Json.object().put("table", "orders").put("limit", 10)
                .put("dsn", "postgres://app:hunter2@db.internal:5432/shop"));
        Incident i = incident(refOf(failed));
        assertThat(i.tool()).contains("query");
        assertThat(i.arguments()).hasValueSatisfying(a -> assertThat(a).contains("\"table\":\"orders\"")
                .contains("\"limit\":10").doesNotContain("hunter2"));
        assertThat(i.original()).hasValueSatisfying(o -> assertThat(o).contains("relation \"orders\""));
    }

    @Test
    void aRefusalsIncidentSaysWhyTheCallWasRefused() {
        start(new Limits.Breaker(50, 2, 2, Duration.ofHours(1), true));
        ToolCallResult refused = null;
        for (int i = 0; i < 5; i++) {
            ToolCallResult r = client.callTool("broken", Json.object());
            if (r.text().contains("paused")) {
                refused = r;
                break;
            }
        }
        assertThat(refused).isNotNull();
        Incident i = incident(refOf(refused));
        assertThat(i.reason()).hasValueSatisfying(r -> assertThat(r).startsWith("The tool broken is paused until ")
                .contains("failed 2 of its last 2 calls"));
    }

    @Test
    void aServerThatCannotStartLeavesAnIncidentSayingSo() {
        Upstream u = Upstream.of("gone", () -> {
            throw new dev.warden.core.transport.ProcessStartException("cannot run /opt/missing/server",
                    new java.io.IOException("error=2, No such file or directory"));
        });
        gateway = Gateway.builder().upstream(u).incidents(incidents::add).build();
        assertThatThrownBy(() -> McpClient.builder("model", "1").protocolVersion(ProtocolVersion.latestSessionBased())
                .connect(ViaGateway.to(gateway)));
        assertThat(incidents).anySatisfy(i -> {
            assertThat(i.reason()).hasValueSatisfying(r -> assertThat(r).contains("could not be started"));
            assertThat(i.chain()).anySatisfy(t -> assertThat(t.message()).hasValueSatisfying(m ->
                    assertThat(m).contains("/opt/missing/server")));
        });
    }
}
