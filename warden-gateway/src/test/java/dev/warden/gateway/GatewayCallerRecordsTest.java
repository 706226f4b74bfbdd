package dev.warden.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.client.McpClient;
import dev.warden.client.ToolCallResult;
import dev.warden.core.error.PeerErrorException;
import dev.warden.core.identity.Caller;
import dev.warden.core.incident.Incident;
import dev.warden.core.json.Json;
import dev.warden.core.mcp.ProtocolVersion;
import dev.warden.core.transport.InMemoryTransport;
import dev.warden.gateway.auditlog.AuditRecord;
import dev.warden.gateway.config.Upstream;
import dev.warden.server.McpServer;
import dev.warden.server.ToolResult;
import dev.warden.server.ToolSpec;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The operator knows who met each request and failure: audit records and incidents carry the
 * authenticated caller's subject and OAuth client id (the peer never sees them); a connection
 * nobody authenticated has neither.
 */
class GatewayCallerRecordsTest {

    private final McpServer upstream = McpServer.builder("recorded", "1.0.0")
            .incidents(dev.warden.core.incident.IncidentSink.all())
            .tool(ToolSpec.builder("ok").handler(c -> ToolResult.text("fine")).build())
            .tool(ToolSpec.builder("leaky").handler(c -> {
                throw new IllegalStateException("boom at /srv/app/Main.java:12");
            }).build())
            .build();
    private final List<AuditRecord> records = new CopyOnWriteArrayList<>();
    private final List<Incident> incidents = new CopyOnWriteArrayList<>();
    private Gateway gateway;
    private final List<McpClient> clients = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() {
        Upstream u = Upstream.of("recorded", () -> {
            InMemoryTransport.Pair pair = InMemoryTransport.pair();
            upstream.connect(pair.right());
            return pair.left();
        });
        gateway = Gateway.builder().upstream(u).incidents(incidents::add).audit(records::add, false).build();
    }

    @AfterEach
    void stop() {
        clients.forEach(McpClient::close);
        gateway.close();
    }

    private McpClient as(Caller caller) {
        McpClient c = AsCaller.sessionClient(gateway, caller, "claimed-name");
        clients.add(c);
        return c;
    }

    private AuditRecord lastCall() {
        return records.stream().filter(r -> r.method().equals("tools/call")).reduce((a, b) -> b).orElseThrow();
    }

    private Incident incident(String ref) {
        return incidents.stream().filter(i -> i.ref().value().equals(ref)).findFirst().orElseThrow();
    }

    @Test
    void auditRecordsCarryATokensSubjectAndClientId() {
        as(AsCaller.jwt("alice")).callTool("ok", Json.object());
        assertThat(lastCall().subject()).contains("alice");
        assertThat(lastCall().clientId()).contains("client-alice");
        assertThat(lastCall().client()).startsWith("claimed-name#");
    }

    @Test
    void anApiKeysRecordsCarryItsSubjectAndNoClientId() {
        as(AsCaller.apiKey("ci-bot")).callTool("ok", Json.object());
        assertThat(lastCall().subject()).contains("key:ci-bot");
        assertThat(lastCall().clientId()).isEmpty();
    }

    @Test
    void recordsOfAConnectionNobodyAuthenticatedCarryNoSubject() {
        McpClient anonymous = McpClient.builder("anon", "1").connect(ViaGateway.to(gateway));
        clients.add(anonymous);
        anonymous.callTool("ok", Json.object());
        assertThat(lastCall().subject()).isEmpty();
        assertThat(lastCall().clientId()).isEmpty();
    }

    @Test
    void aToolFailureMetByAnAuthenticatedCallerIsRecordedWithItsSubjectAndClientId() {
        ToolCallResult failed = as(AsCaller.jwt("alice")).callTool("leaky", Json.object());
        assertThat(failed.isError()).isTrue();
        assertThat(failed.text()).doesNotContain("alice");
        String ref = lastCall().ref().orElseThrow();
        assertThat(incident(ref).subject()).contains("alice");
        assertThat(incident(ref).clientId()).contains("client-alice");
    }

    @Test
    void failuresOfOneUpstreamMetByTwoCallersAreRecordedEachWithItsOwn() throws Exception {
        McpClient alice = as(AsCaller.jwt("alice"));
        McpClient bob = as(AsCaller.jwt("bob"));
        // At once, so the upstream's one pipeline records both while both calls are in flight.
        java.util.concurrent.CompletableFuture<ToolCallResult> fromAlice = java.util.concurrent.CompletableFuture
                .supplyAsync(() -> alice.callTool("leaky", Json.object()));
        ToolCallResult fromBob = bob.callTool("leaky", Json.object());
        assertThat(fromAlice.get(30, java.util.concurrent.TimeUnit.SECONDS).isError()).isTrue();
        assertThat(fromBob.isError()).isTrue();
        List<AuditRecord> calls = records.stream().filter(r -> r.method().equals("tools/call")).toList();
        assertThat(calls).hasSize(2);
        for (AuditRecord call : calls) {
            assertThat(incident(call.ref().orElseThrow()).subject()).isEqualTo(call.subject());
        }
        assertThat(calls).extracting(r -> r.subject().orElseThrow()).containsExactlyInAnyOrder("alice", "bob");
    }

    @Test
    void aRefusalOfTheGatewaysOwnIsRecordedWithTheCaller() {
        McpClient alice = as(AsCaller.jwt("alice"));
        PeerErrorException refused = org.junit.jupiter.api.Assertions.assertThrows(PeerErrorException.class,
                () -> alice.request("prompts/get", AccessFixture.params("name", "nothing-here")));
        assertThat(refused.error().toString()).doesNotContain("alice");
        String ref = refused.error().data().orElseThrow().path("ref").asString();
        assertThat(incident(ref).subject()).contains("alice");
        assertThat(incident(ref).clientId()).contains("client-alice");
        assertThat(incidents).allMatch(i -> i.subject().equals(Optional.of("alice")));
    }

    @Test
    void anUpstreamThatCannotStartForAnAuthenticatedCallerIsRecordedWithTheCaller() {
        Gateway broken = Gateway.builder().upstream(Upstream.of("broken", () -> {
            throw new IllegalStateException("cannot reach /srv/broken");
        })).incidents(incidents::add).audit(records::add, false).build();
        try {
            Throwable failed = org.assertj.core.api.Assertions.catchThrowable(
                    () -> McpClient.builder("claimed-name", "1").requestTimeout(Duration.ofSeconds(30))
                            .reconnect(dev.warden.client.ReconnectPolicy.none())
                            .protocolVersion(ProtocolVersion.latestSessionBased())
                            .connect(AsCaller.via(broken, AsCaller.jwt("alice"), "10.0.0.1")));
            // The client wraps the gateway's answer to initialize in its own "could not connect".
            PeerErrorException refused = java.util.stream.Stream.iterate(failed, java.util.Objects::nonNull,
                    Throwable::getCause).filter(PeerErrorException.class::isInstance)
                    .map(PeerErrorException.class::cast).findFirst().orElseThrow(() -> new AssertionError(failed));
            String ref = refused.error().data().orElseThrow().path("ref").asString();
            assertThat(incident(ref).subject()).contains("alice");
            assertThat(incident(ref).clientId()).contains("client-alice");
        } finally {
            broken.close();
        }
    }
}
