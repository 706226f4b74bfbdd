package dev.warden.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.warden.client.McpClient;
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
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * An upstream error's {@code data} is never dumped into the message the model reads: what a known
 * shape extracts (here a database DETAIL, read with the caller's own words kept) reaches it, the
 * rest goes to the incident. The database error is PostgreSQL 15's unique violation as
 * node-postgres reports it ({@code err.message}, and {@code code}, {@code detail},
 * {@code constraint}, {@code table}, {@code schema} copied into {@code data}, as servers do).
 */
class GatewayUpstreamDataTest {

    private static final String OTHER_CUSTOMER = "grace.hopper@customer-b.example";
    private static final String PG_ERROR = "{\"code\":-32603,\"message\":"
            + "\"duplicate key value violates unique constraint \\\"h80_users_email_key\\\"\",\"data\":{\"code\":\"23505\","
            + "\"detail\":\"Key (email)=(" + OTHER_CUSTOMER + ") already exists.\",\"constraint\":\"h80_users_email_key\","
            + "\"table\":\"h80_users\",\"schema\":\"public\"}}";

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

    private void start(Map<String, Function<JsonNode, String>> answers, String refusedMethod, String refusal) {
        McpServer server = McpServer.builder("crm", "1.0.0").incidents(IncidentSink.all())
                .tool(ToolSpec.builder("update_profile").handler(call -> ToolResult.text("ok")).build())
                .resource(new dev.warden.core.mcp.Resources.Resource("test://profile", "profile", Optional.empty(),
                        Optional.empty(), Optional.empty(), OptionalLong.empty()), (uri, vars) -> List.of())
                .build();
        Upstream u = Upstream.of("crm", () -> {
            InMemoryTransport.Pair pair = InMemoryTransport.pair();
            server.connect(pair.right());
            return new AnsweringCalls(new RefusingMethod(pair.left(), refusedMethod, refusal), answers,
                    new AtomicInteger());
        });
        gateway = Gateway.builder().upstream(u).incidents(incidents::add).build();
        client = McpClient.builder("c", "1").connect(ViaGateway.to(gateway));
    }

    private Incident incidentOf(String ref) {
        return incidents.stream().filter(i -> i.ref().value().equals(ref)).findFirst()
                .orElseThrow(() -> new AssertionError("no incident for " + ref + " in " + incidents));
    }

    @Test
    void aResourceReadErrorsDataIsNotAppendedToTheMessageAndGoesToTheIncident() {
        start(Map.of(), "resources/read",
                "{\"code\":-32603,\"message\":\"Permission denied\",\"data\":{\"user\":\"svc-reports\",\"uid\":1001}}");

        assertThatThrownBy(() -> client.request("resources/read", Json.object().put("uri", "test://profile")))
                .isInstanceOfSatisfying(PeerErrorException.class, e -> {
                    assertThat(e.error().message()).doesNotContain("svc-reports", "1001", "uid", "{");
                    assertThat(e.error().data().orElseThrow().toString()).doesNotContain("svc-reports", "1001");
                    assertThat(incidentOf(e.error().data().orElseThrow().get("ref").asString()).original().orElseThrow())
                            .contains("svc-reports", "1001");
                });
    }

    @Test
    void anotherCustomersEmailInAToolErrorsDataDoesNotReachTheModelButTheConflictingFieldDoes() {
        start(Map.of("update_profile", args -> "\"error\":" + PG_ERROR), "nothing/refused", "{}");

        JsonNode result = client.callTool("update_profile",
                Json.object().put("email", "ada@customer-a.example").put("name", "Ada")).raw();

        assertThat(result.toString()).doesNotContain(OTHER_CUSTOMER, "h80_users");
        assertThat(result.at("/structuredContent/error/code").asString()).isEqualTo("CONFLICT");
        assertThat(result.at("/content/0/text").asString()).contains("Key (email)=(").contains("already exists");
        assertThat(incidentOf(result.at("/structuredContent/error/ref").asString()).original().orElseThrow())
                .contains(OTHER_CUSTOMER);
    }
}
