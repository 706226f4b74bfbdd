package dev.warden.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.client.McpClient;
import dev.warden.client.ToolCallResult;
import dev.warden.core.incident.IncidentSink;
import dev.warden.core.json.Json;
import dev.warden.core.mcp.ProtocolVersion;
import dev.warden.core.transport.InMemoryTransport;
import dev.warden.gateway.config.Limits;
import dev.warden.gateway.config.Upstream;
import dev.warden.server.McpServer;
import dev.warden.server.tool.ToolResult;
import dev.warden.server.tool.ToolSpec;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The per-client rate limit is kept by what a client cannot choose freely, its network address:
 * not by its session (a new one would start afresh) nor by the name it gives itself (anyone could
 * spend another's calls by giving that name).
 */
class GatewayClientRatesTest {

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

    private McpClient session(String name, String address) {
        return McpClient.builder(name, "1").requestTimeout(Duration.ofSeconds(30))
                .protocolVersion(ProtocolVersion.latestSessionBased()).connect(AsCaller.via(gateway, address));
    }

    private McpClient stateless(String name, String address) {
        return McpClient.builder(name, "1").requestTimeout(Duration.ofSeconds(30))
                .protocolVersion(ProtocolVersion.V2026_07_28).connect(AsCaller.via(gateway, address));
    }

    private static ToolCallResult call(McpClient client) {
        return client.callTool("ok", Json.object());
    }

    @Test
    void aNewSessionFromTheSameAddressDoesNotGetAFreshBucket() {
        try (McpClient first = session("ada", "10.0.0.1")) {
            assertThat(call(first).isError()).isFalse();
            assertThat(call(first).isError()).isFalse();
            assertThat(call(first).text()).contains("RATE_LIMITED");
        }
        try (McpClient again = session("ada", "10.0.0.1")) {
            ToolCallResult result = call(again);
            assertThat(result.isError()).isTrue();
            assertThat(result.text()).contains("RATE_LIMITED").contains("retryAfterMs");
        }
    }

    @Test
    void aClientClaimingAnothersNameDoesNotSpendTheOthersCalls() {
        try (McpClient ada = stateless("ada", "10.0.0.1"); McpClient mallory = stateless("ada", "10.0.0.66")) {
            assertThat(call(ada).isError()).isFalse();
            assertThat(call(mallory).isError()).isFalse();
            assertThat(call(mallory).isError()).isFalse();
            assertThat(call(mallory).text()).contains("RATE_LIMITED");

            ToolCallResult adasSecond = call(ada);
            assertThat(adasSecond.isError()).as(adasSecond.text()).isFalse();
        }
    }

    @Test
    void statelessRequestsFromOneAddressShareItsBucketWhateverNameTheyGive() {
        for (String name : new String[] {"ada", "bob"}) {
            try (McpClient c = stateless(name, "10.0.0.1")) {
                assertThat(call(c).isError()).isFalse();
            }
        }
        try (McpClient renamed = stateless("carol", "10.0.0.1")) {
            assertThat(call(renamed).text()).contains("RATE_LIMITED");
        }
        try (McpClient elsewhere = stateless("ada", "10.0.0.2")) {
            assertThat(call(elsewhere).isError()).isFalse();
        }
    }
}
