package dev.warden.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.warden.client.McpClient;
import dev.warden.core.incident.IncidentSink;
import dev.warden.core.json.Json;
import dev.warden.core.error.PeerErrorException;
import dev.warden.core.mcp.Content;
import dev.warden.core.mcp.Prompts;
import dev.warden.core.mcp.ProtocolVersion;
import dev.warden.core.mcp.Resources;
import dev.warden.core.transport.InMemoryTransport;
import dev.warden.gateway.config.Limits;
import dev.warden.gateway.config.Upstream;
import dev.warden.gateway.shared.SharedBreakers;
import dev.warden.gateway.shared.SharedRates;
import dev.warden.server.McpServer;
import dev.warden.server.PromptSpec;
import dev.warden.server.ToolResult;
import dev.warden.server.ToolSpec;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The per-client rate limit is kept by what a client cannot choose freely, its network address:
 * not by its session (a new one would start afresh) nor by the name it gives itself (anyone could
 * spend another's calls by giving that name).
 */
class GatewayClientRatesTest {

    private final McpServer upstream = McpServer.builder("limited", "1.0.0").incidents(IncidentSink.all())
            .tool(ToolSpec.builder("ok").handler(c -> ToolResult.text("fine")).build())
            .resource(new Resources.Resource("test://notes", "notes", Optional.empty(), Optional.empty(),
                    Optional.empty(), OptionalLong.empty()), (uri, vars) -> List.of())
            .prompt(new PromptSpec(new Prompts.Prompt("greet", Optional.empty(), Optional.empty(), List.of()),
                    (args, input) -> new Prompts.GetResult(Optional.empty(), List.of(new Prompts.Message(
                            Prompts.Role.USER, Content.text("hello"))))))
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

    private static RawToolCall call(McpClient client) {
        return RawToolCall.of(client, "ok");
    }

    @Test
    void aNewSessionFromTheSameAddressDoesNotGetAFreshBucket() {
        try (McpClient first = session("ada", "10.0.0.1")) {
            assertThat(call(first).isError()).isFalse();
            assertThat(call(first).isError()).isFalse();
            assertThat(call(first).text()).contains("RATE_LIMITED");
        }
        try (McpClient again = session("ada", "10.0.0.1")) {
            RawToolCall result = call(again);
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

            RawToolCall adasSecond = call(ada);
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

    private static JsonNode read(McpClient client) {
        return client.request("resources/read", Json.object().put("uri", "test://notes"));
    }

    private static JsonNode prompt(McpClient client) {
        return client.request("prompts/get", Json.object().put("name", "greet"));
    }

    /** A request past the client's rate, refused as a JSON-RPC error (not a tool call) with Warden's code in data. */
    private static void refusedByRate(Runnable request) {
        assertThatThrownBy(request::run).isInstanceOfSatisfying(PeerErrorException.class, e -> {
            assertThat(e.error().code()).as("not in the legacy band: -32603").isEqualTo(-32603);
            JsonNode data = e.error().data().orElseThrow();
            assertThat(data.get("code").asString()).isEqualTo("RATE_LIMITED");
            assertThat(data.get("retryable").asBoolean()).isTrue();
            assertThat(data.get("retryAfterMs").asLong()).isPositive();
            assertThat(data.get("ref").asString()).startsWith("ref_");
        });
    }

    @Test
    void resourceReadsAndPromptGetsSpendTheSessionClientsRate() {
        try (McpClient client = session("ada", "10.0.0.1")) {
            assertThat(read(client).path("contents").isArray()).isTrue();
            assertThat(prompt(client).path("messages").isArray()).isTrue();

            refusedByRate(() -> read(client));
            refusedByRate(() -> prompt(client));
            assertThat(call(client).text()).as("the same bucket as its tool calls").contains("RATE_LIMITED");
        }
    }

    @Test
    void statelessResourceReadsAndPromptGetsSpendTheClientsRate() {
        try (McpClient client = stateless("ada", "10.0.0.1")) {
            assertThat(read(client).path("contents").isArray()).isTrue();
            assertThat(call(client).isError()).isFalse();

            refusedByRate(() -> prompt(client));
            refusedByRate(() -> read(client));
        }
        try (McpClient elsewhere = stateless("ada", "10.0.0.2")) {
            assertThat(prompt(elsewhere).path("messages").isArray()).as("another client's bucket").isTrue();
        }
    }

    @Test
    void aListingSpendsOneCallOfTheRate() {
        try (McpClient client = session("ada", "10.0.0.1")) {
            assertThat(client.request("tools/list", Json.object()).path("tools").isArray()).isTrue();
            assertThat(call(client).isError()).isFalse();
            assertThat(call(client).text()).contains("RATE_LIMITED");
        }
    }

    @Test
    void readsAndPromptsSpendTheRateSharedWithTheOtherReplicas() {
        // The shared store as Redis keeps it: one count per scope, for every replica.
        Map<String, AtomicInteger> taken = new ConcurrentHashMap<>();
        SharedRates shared = (scope, rate) -> taken.computeIfAbsent(scope, s -> new AtomicInteger())
                .incrementAndGet() <= rate.calls() ? Optional.empty() : Optional.of(Duration.ofMinutes(1));
        Gateway first = replica(shared);
        Gateway second = replica(shared);
        try (McpClient onFirst = McpClient.builder("ada", "1").requestTimeout(Duration.ofSeconds(30))
                .connect(AsCaller.via(first, AsCaller.apiKey("ada"), "10.0.0.1"));
                McpClient onSecond = McpClient.builder("ada", "1").requestTimeout(Duration.ofSeconds(30))
                        .connect(AsCaller.via(second, AsCaller.apiKey("ada"), "10.0.0.2"))) {
            assertThat(read(onFirst).path("contents").isArray()).isTrue();
            assertThat(prompt(onSecond).path("messages").isArray()).isTrue();

            refusedByRate(() -> read(onSecond));
            refusedByRate(() -> prompt(onFirst));
        } finally {
            first.close();
            second.close();
        }
    }

    private Gateway replica(SharedRates shared) {
        Upstream u = Upstream.of("limited", () -> {
            InMemoryTransport.Pair pair = InMemoryTransport.pair();
            upstream.connect(pair.right());
            return pair.left();
        });
        return Gateway.builder().upstream(u).incidents(IncidentSink.all()).shared(shared, SharedBreakers.none())
                .perClient(new Limits.Rate(2, Duration.ofHours(1))).build();
    }
}
