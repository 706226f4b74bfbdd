package dev.warden.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.client.McpClient;
import dev.warden.core.identity.Caller;
import dev.warden.core.incident.IncidentSink;
import dev.warden.core.json.Json;
import dev.warden.core.mcp.ProtocolVersion;
import dev.warden.core.mcp.Resources;
import dev.warden.core.transport.InMemoryTransport;
import dev.warden.gateway.config.Upstream;
import dev.warden.server.McpServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A resource subscription is its subscriber's: on an upstream shared by Alice and Bob (two API
 * keys), Bob unsubscribing from what Alice subscribed to ends nothing of hers, and her updates
 * never reach him.
 */
class GatewaySubscriptionOwnershipTest {

    private final McpServer upstream = McpServer.builder("watched", "1").incidents(IncidentSink.all())
            .resourceSubscriptions(true)
            .resource(resource("test://alices"), (uri, vars) -> List.of())
            .resource(resource("test://bobs"), (uri, vars) -> List.of())
            .build();
    private final Gateway gateway = Gateway.builder().incidents(IncidentSink.all())
            .upstream(Upstream.of("watched", () -> {
                InMemoryTransport.Pair pair = InMemoryTransport.pair();
                upstream.connect(pair.right());
                return pair.left();
            })).build();
    private final List<McpClient> clients = new ArrayList<>();

    private static Resources.Resource resource(String uri) {
        return new Resources.Resource(uri, uri, Optional.empty(), Optional.empty(), Optional.empty(),
                OptionalLong.empty());
    }

    private McpClient as(Caller caller, BlockingQueue<String> updates) {
        McpClient c = McpClient.builder("c", "1").requestTimeout(Duration.ofSeconds(30))
                .protocolVersion(ProtocolVersion.latestSessionBased()).onNotification((method, params) -> {
                    if ("notifications/resources/updated".equals(method)) {
                        updates.add(params.map(p -> p.path("uri").asString("")).orElse(""));
                    }
                }).connect(AsCaller.via(gateway, caller, "10.0.0.1"));
        clients.add(c);
        return c;
    }

    @AfterEach
    void close() {
        clients.forEach(McpClient::close);
        gateway.close();
    }

    @Test
    void bobUnsubscribingFromAlicesResourceEndsNothingOfHersAndHerUpdatesNeverReachHim() throws Exception {
        BlockingQueue<String> aliceHeard = new LinkedBlockingQueue<>();
        BlockingQueue<String> bobHeard = new LinkedBlockingQueue<>();
        McpClient alice = as(AsCaller.apiKey("alice"), aliceHeard);
        McpClient bob = as(AsCaller.apiKey("bob"), bobHeard);
        alice.request("resources/subscribe", Json.object().put("uri", "test://alices"));
        bob.request("resources/unsubscribe", Json.object().put("uri", "test://alices"));
        bob.request("resources/subscribe", Json.object().put("uri", "test://bobs"));

        upstream.resourceUpdated("test://alices");
        assertThat(aliceHeard.poll(10, TimeUnit.SECONDS)).isEqualTo("test://alices");
        upstream.resourceUpdated("test://bobs");
        // Updates come in order: by the time his own arrives, hers would have.
        assertThat(bobHeard.poll(10, TimeUnit.SECONDS)).isEqualTo("test://bobs");
        assertThat(bobHeard).isEmpty();
    }
}
