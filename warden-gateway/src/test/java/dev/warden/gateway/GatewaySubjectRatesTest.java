package dev.warden.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.client.McpClient;
import dev.warden.core.identity.Caller;
import dev.warden.core.incident.IncidentSink;
import dev.warden.core.mcp.ProtocolVersion;
import dev.warden.core.transport.InMemoryTransport;
import dev.warden.gateway.config.Limits;
import dev.warden.gateway.config.Upstream;
import dev.warden.server.McpServer;
import dev.warden.server.ToolResult;
import dev.warden.server.ToolSpec;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * When the transport knows who is calling, the per-client rate is the caller's: the same bucket
 * from every connection and address, whatever name the client gives itself; another subject (or
 * the same name vouched for by another issuer) has its own.
 */
class GatewaySubjectRatesTest {

    private final McpServer upstream = McpServer.builder("limited", "1.0.0").incidents(IncidentSink.all())
            .tool(ToolSpec.builder("ok").handler(c -> ToolResult.text("fine")).build())
            .build();
    private Gateway gateway;

    @BeforeEach
    void start() {
        Upstream u = Upstream.of("limited", () -> {
            InMemoryTransport.Pair pair = InMemoryTransport.pair();
            upstream.connect(pair.right());
            return pair.left();
        });
        gateway = Gateway.builder().upstream(u).incidents(IncidentSink.all())
                .perClient(new Limits.Rate(2, Duration.ofHours(1))).build();
    }

    @AfterEach
    void stop() {
        gateway.close();
    }

    private McpClient session(String name, Caller caller, String address) {
        return McpClient.builder(name, "1").requestTimeout(Duration.ofSeconds(30))
                .protocolVersion(ProtocolVersion.latestSessionBased()).connect(AsCaller.via(gateway, caller, address));
    }

    private McpClient stateless(String name, Caller caller, String address) {
        return McpClient.builder(name, "1").requestTimeout(Duration.ofSeconds(30))
                .protocolVersion(ProtocolVersion.V2026_07_28).connect(AsCaller.via(gateway, caller, address));
    }

    private static RawToolCall call(McpClient client) {
        return RawToolCall.of(client, "ok");
    }

    @Test
    void oneSubjectSpendsOneBucketAcrossConnectionsAddressesAndNames() {
        Caller alice = AsCaller.jwt("alice");
        try (McpClient laptop = session("claude-ai", alice, "10.0.0.1");
                McpClient phone = session("cursor", alice, "192.168.1.7")) {
            assertThat(call(laptop).isError()).isFalse();
            assertThat(call(phone).isError()).isFalse();
            assertThat(call(laptop).text()).contains("RATE_LIMITED");
            assertThat(call(phone).text()).contains("RATE_LIMITED");
        }
        try (McpClient renamed = stateless("someone-else", alice, "10.0.0.99")) {
            assertThat(call(renamed).text()).contains("RATE_LIMITED");
        }
    }

    @Test
    void twoSubjectsFromOneAddressHaveABucketEach() {
        try (McpClient alice = session("shared-name", AsCaller.jwt("alice"), "10.0.0.1");
                McpClient bob = session("shared-name", AsCaller.jwt("bob"), "10.0.0.1")) {
            assertThat(call(alice).isError()).isFalse();
            assertThat(call(alice).isError()).isFalse();
            assertThat(call(alice).text()).contains("RATE_LIMITED");

            RawToolCall bobs = call(bob);
            assertThat(bobs.isError()).as(bobs.text()).isFalse();
            assertThat(call(bob).isError()).isFalse();
        }
    }

    @Test
    void anApiKeyAndATokenNamingTheSameSubjectAreTwoCallers() {
        Caller key = AsCaller.apiKey("ci-bot");
        Caller token = AsCaller.jwt("key:ci-bot"); // another issuer vouching for the same name
        try (McpClient bot = stateless("bot", key, "10.0.0.5"); McpClient user = stateless("bot", token, "10.0.0.5")) {
            assertThat(call(bot).isError()).isFalse();
            assertThat(call(bot).isError()).isFalse();
            assertThat(call(bot).text()).contains("RATE_LIMITED");

            RawToolCall users = call(user);
            assertThat(users.isError()).as(users.text()).isFalse();
        }
    }
}
