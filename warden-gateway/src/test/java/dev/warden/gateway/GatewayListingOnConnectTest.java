package dev.warden.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.client.McpClient;
import dev.warden.client.ReconnectPolicy;
import dev.warden.core.incident.IncidentSink;
import dev.warden.core.json.Json;
import dev.warden.core.mcp.ProtocolVersion;
import dev.warden.core.transport.InMemoryTransport;
import dev.warden.core.transport.Transport;
import dev.warden.gateway.config.Upstream;
import dev.warden.server.McpServer;
import dev.warden.server.ToolResult;
import dev.warden.server.ToolSpec;
import dev.warden.telemetry.McpNames;
import io.opentelemetry.api.trace.SpanKind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The gateway lists an upstream's tools itself as it first connects: a client that calls without
 * listing (it listed before the gateway restarted, or knows its tools) is served as one that
 * listed; once per upstream, however many clients come; and an upstream that cannot list holds
 * no client back for longer than a moment.
 */
class GatewayListingOnConnectTest {

    private final TracedGateway traced = new TracedGateway();
    private final List<JsonNode> sent = TracedGateway.Tap.frames();
    private final McpServer upstream = McpServer.builder("crm", "1.0.0").incidents(IncidentSink.all())
            .tool(ToolSpec.builder("lookup").handler(c -> ToolResult.text("found")).build())
            .tool(ToolSpec.builder("erase").handler(c -> ToolResult.text("erased")).build())
            .build();
    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable c : open.reversed()) {
            c.close();
        }
    }

    /** A gateway before {@link #upstream}, each of its connections tapped and wrapped by {@code wrap}. */
    private Gateway gateway(UnaryOperator<Upstream.Builder> settings, UnaryOperator<Transport> wrap) {
        Upstream u = settings.apply(Upstream.builder("crm", () -> {
            InMemoryTransport.Pair pair = InMemoryTransport.pair();
            upstream.connect(pair.right());
            return wrap.apply(new TracedGateway.Tap(pair.left(), sent));
        }).timeout(Duration.ofSeconds(30)).reconnect(ReconnectPolicy.none())).build();
        Gateway gateway = Gateway.builder().upstream(u).incidents(IncidentSink.all()).telemetry(traced.telemetry)
                .build();
        open.add(gateway);
        return gateway;
    }

    private McpClient client(Gateway gateway) {
        McpClient client = McpClient.builder("model", "1").requestTimeout(Duration.ofSeconds(30))
                .protocolVersion(ProtocolVersion.latestSessionBased()).connect(ViaGateway.to(gateway));
        open.add(client);
        return client;
    }

    /** A raw tools/call, as a client that did not list sends it ({@code McpClient.callTool} would list first). */
    private static String call(McpClient client, String tool) {
        return client.request("tools/call", Json.object().put("name", tool).set("arguments", Json.object()))
                .path("content").path(0).path("text").asString("");
    }

    private long listings() {
        return sent.stream().filter(f -> "tools/list".equals(f.path("method").asString(""))).count();
    }

    @Test
    void aCallWithoutAListingIsNamedByTheToolTheUpstreamListed() {
        McpClient client = client(gateway(u -> u, t -> t));

        assertThat(call(client, "lookup")).isEqualTo("found");

        assertThat(traced.only(SpanKind.SERVER, "tools/call lookup").getAttributes().get(McpNames.GEN_AI_TOOL_NAME))
                .isEqualTo("lookup");
        assertThat(traced.only(SpanKind.CLIENT, "tools/call lookup").getAttributes().get(McpNames.GEN_AI_TOOL_NAME))
                .isEqualTo("lookup");
    }

    @Test
    void theUpstreamIsListedOnceHoweverManyClientsComeAndNoneLists() {
        Gateway gateway = gateway(u -> u, t -> t);
        call(client(gateway), "lookup");
        call(client(gateway), "lookup");

        assertThat(listings()).isEqualTo(1);
        assertThat(traced.spans(SpanKind.SERVER, "tools/call lookup")).hasSize(2);
    }

    @Test
    void aPerClientUpstreamIsListedByItsFirstConnectionAlone() {
        Gateway gateway = gateway(u -> u.perClient(true), t -> t);
        call(client(gateway), "lookup");
        call(client(gateway), "lookup");

        assertThat(listings()).isEqualTo(1);
        assertThat(traced.spans(SpanKind.SERVER, "tools/call lookup")).hasSize(2);
    }

    @Test
    void aToolThePolicyHidesIsNotLearntFromTheListing() {
        McpClient client = client(gateway(u -> u.tools(Optional.empty(), Set.of("erase")), t -> t));
        try {
            call(client, "erase");
        } catch (RuntimeException refused) {
            // refused as an unknown tool: what its span is named is what this test is about
        }

        assertThat(traced.spans(SpanKind.SERVER, "tools/call erase")).isEmpty();
        assertThat(traced.spans(SpanKind.SERVER, "tools/call")).hasSize(1);
    }

    @Test
    void anUpstreamThatRefusesToListServesCallsAsBefore() {
        McpClient client = client(gateway(u -> u, t -> new RefusingMethod(t, "tools/list",
                "{\"code\":-32603,\"message\":\"cnry_list_8d2e: no tools table\"}")));

        assertThat(call(client, "lookup")).isEqualTo("found");
        assertThat(traced.spans(SpanKind.SERVER, "tools/call")).hasSize(1);
        assertThat(traced.spans()).allSatisfy(span -> assertThat(TracedGateway.everything(span))
                .doesNotContain("cnry_list_8d2e"));
    }

    @Test
    void anUpstreamThatNeverAnswersTheListingStillServesTheFirstClient() {
        List<String> unanswered = new java.util.concurrent.CopyOnWriteArrayList<>();
        McpClient client = client(gateway(u -> u, t -> new Unanswered(t, unanswered)));

        assertThat(call(client, "lookup")).isEqualTo("found");
        assertThat(unanswered).hasSize(1);
    }

    @Test
    void anUpstreamThatSaysItsToolsChangedIsListedAgain() throws Exception {
        AtomicReference<Announcing> upstreamSide = new AtomicReference<>();
        McpClient client = client(gateway(u -> u, t -> {
            Announcing a = new Announcing(t);
            upstreamSide.set(a);
            return a;
        }));
        call(client, "lookup");

        upstreamSide.get().toolsChanged();

        upstreamSide.get().listedAgain.get(30, TimeUnit.SECONDS);
        assertThat(listings()).isEqualTo(2);
    }

    /** An upstream's connection that says its tools changed when told to, and tells when it is listed a second time. */
    private static final class Announcing extends ForwardingTransport {
        private final AtomicInteger listed = new AtomicInteger();
        final CompletableFuture<Void> listedAgain = new CompletableFuture<>();

        Announcing(Transport inner) {
            super(inner);
        }

        void toolsChanged() {
            toGateway("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}");
        }

        @Override
        public void send(String frame) {
            super.send(frame);
            if (frame.contains("\"tools/list\"") && listed.incrementAndGet() == 2) {
                listedAgain.complete(null);
            }
        }
    }

    /** An upstream's connection on which {@code tools/list} is never answered: it is kept here, not sent on. */
    private static final class Unanswered extends ForwardingTransport {
        private final List<String> kept;

        Unanswered(Transport inner, List<String> kept) {
            super(inner);
            this.kept = kept;
        }

        @Override
        public void send(String frame) {
            if (frame.contains("\"tools/list\"")) {
                kept.add(frame);
            } else {
                super.send(frame);
            }
        }
    }
}
