package dev.warden.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.warden.client.McpClient;
import dev.warden.client.ToolCallResult;
import dev.warden.core.error.PeerErrorException;
import dev.warden.core.incident.Incident;
import dev.warden.core.incident.IncidentSink;
import dev.warden.core.json.Json;
import dev.warden.core.transport.InMemoryTransport;
import dev.warden.gateway.config.Upstream;
import dev.warden.server.McpServer;
import dev.warden.server.ToolResult;
import dev.warden.server.ToolSpec;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A -32601 answering {@code tools/call}: from a server that has tools it is the tool failing
 * (something it asked mid-call was refused), so the client gets a tool error with a code and a
 * ref the operator can look up, not a "Method not found" for a method that exists.
 */
class GatewayToolErrorsTest {

    private final McpServer upstream = McpServer.builder("tooled", "1.0.0").incidents(IncidentSink.all())
            .tool(ToolSpec.builder("needs-sampling").handler(call -> ToolResult.text("never")).build())
            .build();
    private final List<Incident> incidents = new CopyOnWriteArrayList<>();
    private Gateway gateway;
    private McpClient client;

    @AfterEach
    void stop() {
        if (client != null) {
            client.close();
        }
        if (gateway != null) {
            gateway.close();
        }
    }

    private void start(String refusedMethod) {
        start(upstream, refusedMethod);
    }

    private void start(McpServer server, String refusedMethod) {
        Upstream u = Upstream.of("tooled", () -> {
            InMemoryTransport.Pair pair = InMemoryTransport.pair();
            server.connect(pair.right());
            return new RefusingMethod(pair.left(), refusedMethod,
                    "{\"code\":-32601,\"message\":\"Method not found: sampling/createMessage (/srv/app/tools.js:12)\"}");
        });
        gateway = Gateway.builder().upstream(u).incidents(incidents::add).build();
        client = McpClient.builder("c", "1").connect(ViaGateway.to(gateway));
    }

    @Test
    void methodNotFoundAnsweringACallOfAServerWithToolsIsAToolFailureWithARefThatResolves() {
        start("tools/call");
        ToolCallResult result = client.callTool("needs-sampling", Json.object());
        assertThat(result.isError()).isTrue();
        String ref = result.raw().at("/structuredContent/error/ref").asString();
        // Coded from its words, like any upstream failure text.
        assertThat(result.raw().at("/structuredContent/error/code").asString()).isEqualTo("NOT_FOUND");
        assertThat(result.raw().toString()).doesNotContain("/srv/app");
        assertThat(incidents).anySatisfy(i -> {
            assertThat(i.ref().value()).isEqualTo(ref);
            assertThat(i.toString()).contains("/srv/app/tools.js");
        });
    }

    @Test
    void methodNotFoundFromAServerWithoutToolsStaysMethodNotFound() {
        McpServer toolless = McpServer.builder("toolless", "1.0.0").incidents(IncidentSink.all())
                .resource(new dev.warden.core.mcp.Resources.Resource("test://only", "only", java.util.Optional.empty(),
                        java.util.Optional.empty(), java.util.Optional.empty(), java.util.OptionalLong.empty()),
                        (uri, vars) -> List.of())
                .build();
        start(toolless, "nothing/refused");
        assertThatThrownBy(() -> client.request("tools/call", Json.object().put("name", "anything")))
                .isInstanceOfSatisfying(PeerErrorException.class, e -> {
                    assertThat(e.error().code()).isEqualTo(-32601);
                    assertThat(e.error().message()).isEqualTo("Method not found");
                });
    }

    @Test
    void theRefOfAnUnknownToolResolvesInTheGatewaysIncidentsWithoutTheNameInTheAnswer() {
        start("nothing/refused");
        assertThatThrownBy(() -> client.request("tools/call", Json.object().put("name", "probe_no_such_tool")))
                .isInstanceOfSatisfying(PeerErrorException.class, e -> {
                    assertThat(e.error().code()).isEqualTo(-32602);
                    assertThat(e.error().toString()).doesNotContain("probe_no_such_tool");
                    String ref = e.error().data().orElseThrow().path("ref").asString();
                    assertThat(incidents).anySatisfy(i -> {
                        assertThat(i.ref().value()).isEqualTo(ref);
                        assertThat(i.method()).isEqualTo("tools/call");
                    });
                });
    }
}
