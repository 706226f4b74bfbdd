package dev.warden.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.client.McpClient;
import dev.warden.client.ReconnectPolicy;
import dev.warden.client.ToolCallResult;
import dev.warden.core.identity.Caller;
import dev.warden.core.incident.IncidentSink;
import dev.warden.core.json.Json;
import dev.warden.core.mcp.ProtocolVersion;
import dev.warden.core.session.RequestOptions;
import dev.warden.core.transport.InMemoryTransport;
import dev.warden.core.transport.Transport;
import dev.warden.gateway.config.Limits;
import dev.warden.gateway.config.Upstream;
import dev.warden.server.McpServer;
import dev.warden.server.ToolResult;
import dev.warden.server.ToolSpec;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Each client's share of an upstream's concurrent calls ({@code maxConcurrentPerClient}): one
 * client's burst waits its turn in the gateway instead of filling the upstream ahead of the other
 * clients; its calls beyond the share are refused once the queue wait is over; and the places come
 * back however a call ends. A real gateway in front of a Warden server in the same JVM.
 */
class GatewayClientSharesTest {

    /** One permit each time the slow tool starts running. */
    private final Semaphore entered = new Semaphore(0);
    /** One permit lets one slow call finish. */
    private final Semaphore gate = new Semaphore(0);
    /** One permit each time a slow call is interrupted by its cancellation. */
    private final Semaphore interrupted = new Semaphore(0);
    /** Holds the stuck tool until the test ends (its calls time out in the gateway). */
    private final CountDownLatch unstick = new CountDownLatch(1);
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final McpServer upstream = McpServer.builder("shared", "1.0.0").incidents(IncidentSink.all())
            .tool(ToolSpec.builder("ok").handler(c -> ToolResult.text("fine")).build())
            .tool(ToolSpec.builder("slow").handler(c -> {
                entered.release();
                try {
                    gate.acquire();
                } catch (InterruptedException e) {
                    interrupted.release();
                    throw e;
                }
                return ToolResult.text("late");
            }).build())
            .tool(ToolSpec.builder("boom").handler(c -> {
                throw new IllegalStateException("the tool broke");
            }).build())
            .tool(ToolSpec.builder("stuck").handler(c -> {
                unstick.await(30, TimeUnit.SECONDS);
                return ToolResult.text("too late");
            }).build())
            .build();
    private final List<McpClient> clients = new ArrayList<>();
    /** The upstream's ends of the gateway's connections to it: closing them is the upstream going away. */
    private final List<Transport> upstreamEnds = new CopyOnWriteArrayList<>();
    private Gateway gateway;

    private void start(Limits limits) {
        Upstream u = Upstream.builder("shared", () -> {
            InMemoryTransport.Pair pair = InMemoryTransport.pair();
            upstream.connect(pair.right());
            upstreamEnds.add(pair.right());
            return pair.left();
        }).timeout(Duration.ofSeconds(30)).toolTimeouts(Map.of("stuck", Duration.ofMillis(200))).limits(limits)
                .reconnect(ReconnectPolicy.none()).build();
        gateway = Gateway.builder().upstream(u).incidents(IncidentSink.all()).metrics(registry).build();
    }

    /** A client session of its own: a client of its own for the per-client share. */
    private McpClient client() {
        McpClient client = McpClient.builder("test", "1").protocolVersion(ProtocolVersion.latestSessionBased())
                .requestTimeout(Duration.ofSeconds(30)).connect(ViaGateway.to(gateway));
        clients.add(client);
        return client;
    }

    @AfterEach
    void stop() {
        gate.release(1000);
        unstick.countDown();
        clients.forEach(McpClient::close);
        if (gateway != null) {
            gateway.close();
        }
    }

    private static CompletableFuture<ToolCallResult> slow(McpClient client) {
        return client.callToolAsync("slow", Json.object(), RequestOptions.ofToolCallDefaults()
                .withTimeout(Duration.ofSeconds(30)));
    }

    private void awaitEntered(int calls) throws InterruptedException {
        assertThat(entered.tryAcquire(calls, 30, TimeUnit.SECONDS)).as(calls + " slow call(s) running upstream")
                .isTrue();
    }

    private static JsonNode error(ToolCallResult result) {
        assertThat(result.isError()).as(result.text()).isTrue();
        return Json.mapper().readTree(result.text()).get("error");
    }

    @Test
    void aClientBeyondItsShareWaitsWhileAnotherClientGoesThroughAndGoesOnOnceAPlaceComesBack() throws Exception {
        start(Limits.ofDefaults().withMaxConcurrentPerClient(2)); // the queue wait: 5 s
        McpClient greedy = client();
        McpClient honest = client();
        var first = slow(greedy);
        var second = slow(greedy);
        awaitEntered(2);

        var third = slow(greedy);
        assertThat(honest.callTool("ok", Json.object()).text()).as("another client's call goes through at once")
                .isEqualTo("fine");
        // The third waits in the gateway: it does not reach the upstream while the client's two run.
        assertThat(entered.tryAcquire(300, TimeUnit.MILLISECONDS)).as("the third call waits its turn").isFalse();
        assertThat(third).isNotDone();

        gate.release(); // one of the first two ends: its place goes to the third
        awaitEntered(1);
        gate.release(2);
        assertThat(first.get(30, TimeUnit.SECONDS).text()).isEqualTo("late");
        assertThat(second.get(30, TimeUnit.SECONDS).text()).isEqualTo("late");
        assertThat(third.get(30, TimeUnit.SECONDS).text()).isEqualTo("late");
    }

    @Test
    void aCallStillBeyondTheShareAfterTheQueueWaitIsRefusedAsBusyWithARef() throws Exception {
        start(new Limits(Limits.Breaker.ofDefaults(), 64, Duration.ZERO, Optional.empty())
                .withMaxConcurrentPerClient(2));
        McpClient greedy = client();
        var first = slow(greedy);
        var second = slow(greedy);
        awaitEntered(2);

        JsonNode refused = error(greedy.callTool("ok", Json.object()));

        assertThat(refused.get("code").asString()).isEqualTo("RATE_LIMITED");
        assertThat(refused.get("retryable").asBoolean()).isTrue();
        assertThat(refused.get("retryAfterMs").asLong()).isPositive();
        assertThat(refused.get("ref").asString()).startsWith("ref_");
        assertThat(refused.get("message").asString()).contains("maxConcurrentPerClient").contains("2");
        Counter counted = registry.find("warden_gateway_upstream_refusals").tags("upstream", "shared",
                "limit", "maxConcurrentPerClient").counter();
        assertThat(counted).as("the refusal is counted by its setting").isNotNull();
        assertThat(counted.count()).isEqualTo(1.0);
        assertThat(client().callTool("ok", Json.object()).text()).as("another client is not refused").isEqualTo("fine");

        gate.release(2);
        assertThat(first.get(30, TimeUnit.SECONDS).text()).isEqualTo("late");
        assertThat(second.get(30, TimeUnit.SECONDS).text()).isEqualTo("late");
        assertThat(greedy.callTool("ok", Json.object()).text()).as("the places came back").isEqualTo("fine");
    }

    @Test
    void failedCallsGiveTheirPlacesBack() throws Exception {
        start(new Limits(Limits.Breaker.ofDefaults(), 64, Duration.ZERO, Optional.empty())
                .withMaxConcurrentPerClient(2));
        McpClient client = client();
        for (int i = 0; i < 2; i++) {
            assertThat(error(client.callTool("boom", Json.object())).get("code").asString())
                    .as("the tool failed").isNotEqualTo("RATE_LIMITED");
            assertThat(error(client.callTool("stuck", Json.object())).get("code").asString())
                    .as("the upstream did not answer in time").isEqualTo("TIMEOUT");
        }

        // With no queue wait, a place still held would refuse one of these at once.
        var first = slow(client);
        var second = slow(client);
        awaitEntered(2);
        gate.release(2);
        assertThat(first.get(30, TimeUnit.SECONDS).text()).isEqualTo("late");
        assertThat(second.get(30, TimeUnit.SECONDS).text()).isEqualTo("late");
    }

    @Test
    void callsCutShortByTheUpstreamGoingAwayGiveTheirPlacesBack() throws Exception {
        start(new Limits(Limits.Breaker.ofDefaults(), 64, Duration.ZERO, Optional.empty())
                .withMaxConcurrentPerClient(2));
        McpClient client = client();
        var first = slow(client);
        var second = slow(client);
        awaitEntered(2);

        upstreamEnds.forEach(Transport::close);
        assertThat(error(first.get(30, TimeUnit.SECONDS)).get("code").asString()).isEqualTo("UPSTREAM_ERROR");
        assertThat(error(second.get(30, TimeUnit.SECONDS)).get("code").asString()).isEqualTo("UPSTREAM_ERROR");

        // The gateway connects again; with no queue wait, a place still held would refuse one of these at once.
        var third = slow(client);
        var fourth = slow(client);
        awaitEntered(2);
        gate.release(2);
        assertThat(third.get(30, TimeUnit.SECONDS).text()).isEqualTo("late");
        assertThat(fourth.get(30, TimeUnit.SECONDS).text()).isEqualTo("late");
    }

    @Test
    void cancelledCallsGiveTheirPlacesBackWhetherTheyRanOrWaited() throws Exception {
        start(Limits.ofDefaults().withMaxConcurrentPerClient(2)); // the queue wait: 5 s
        McpClient client = client();
        var first = slow(client);
        var second = slow(client);
        awaitEntered(2);
        var third = slow(client); // waits for a place

        first.cancel(true);
        assertThat(interrupted.tryAcquire(30, TimeUnit.SECONDS)).as("the first is cancelled upstream").isTrue();
        awaitEntered(1); // the first's place went to the third
        var fourth = slow(client); // waits for a place, and is cancelled while it waits
        fourth.cancel(true);
        second.cancel(true);
        third.cancel(true);
        assertThat(interrupted.tryAcquire(2, 30, TimeUnit.SECONDS)).as("the others are cancelled upstream").isTrue();

        // A place never given back would leave one of these waiting, then refused.
        var fifth = slow(client);
        var sixth = slow(client);
        awaitEntered(2);
        gate.release(2);
        assertThat(fifth.get(30, TimeUnit.SECONDS).text()).isEqualTo("late");
        assertThat(sixth.get(30, TimeUnit.SECONDS).text()).isEqualTo("late");
        assertThat(entered.availablePermits()).as("the cancelled fourth never reached the upstream").isZero();
    }

    @Test
    void statelessClientsAreHeldToNoShareSinceOneAddressStandsForManyClients() throws Exception {
        start(new Limits(Limits.Breaker.ofDefaults(), 64, Duration.ZERO, Optional.empty())
                .withMaxConcurrentPerClient(2));
        McpClient first = stateless("10.0.0.1");
        McpClient sameAddress = stateless("10.0.0.1");
        var one = slow(first);
        var two = slow(first);
        awaitEntered(2);

        // Each stateless request has a connection of its own: only the address could tell its
        // client, and many clients stand behind one (a NAT, the conformance suite's scenarios).
        assertThat(sameAddress.callTool("ok", Json.object()).text()).isEqualTo("fine");
        var three = slow(first);
        awaitEntered(1);

        gate.release(3);
        assertThat(one.get(30, TimeUnit.SECONDS).text()).isEqualTo("late");
        assertThat(two.get(30, TimeUnit.SECONDS).text()).isEqualTo("late");
        assertThat(three.get(30, TimeUnit.SECONDS).text()).isEqualTo("late");
    }

    /** A client speaking the stateless version (2026-07-28) from {@code address}. */
    private McpClient stateless(String address) {
        McpClient client = McpClient.builder("test", "1").requestTimeout(Duration.ofSeconds(30))
                .connect(AsCaller.via(gateway, address));
        assertThat(client.protocolVersion().stateless()).isTrue();
        clients.add(client);
        return client;
    }

    /** A stateless client (2026-07-28) the transport authenticated as {@code caller}, from {@code address}. */
    private McpClient stateless(Caller caller, String address) {
        McpClient client = McpClient.builder("test", "1").requestTimeout(Duration.ofSeconds(30))
                .connect(AsCaller.via(gateway, caller, address));
        assertThat(client.protocolVersion().stateless()).isTrue();
        clients.add(client);
        return client;
    }

    @Test
    void anAuthenticatedStatelessCallersCallsAreHeldToItsShareSoAnotherCallerStillGetsAPlace() throws Exception {
        // Three places upstream, two per client, no queue wait: a caller past its share is refused at once.
        start(new Limits(Limits.Breaker.ofDefaults(), 3, Duration.ZERO, Optional.empty())
                .withMaxConcurrentPerClient(2));
        McpClient alice = stateless(AsCaller.apiKey("alice"), "10.0.0.1");
        McpClient aliceElsewhere = stateless(AsCaller.apiKey("alice"), "10.0.0.2");
        McpClient bob = stateless(AsCaller.apiKey("bob"), "10.0.0.1");
        var one = slow(alice);
        var two = slow(aliceElsewhere);
        awaitEntered(2);

        JsonNode refused = error(alice.callTool("ok", Json.object()));
        assertThat(refused.get("code").asString()).isEqualTo("RATE_LIMITED");
        assertThat(refused.get("retryAfterMs").asLong()).isPositive();
        assertThat(refused.get("message").asString()).contains("maxConcurrentPerClient");
        assertThat(bob.callTool("ok", Json.object()).text()).as("another caller still gets a place").isEqualTo("fine");

        gate.release(2);
        assertThat(one.get(30, TimeUnit.SECONDS).text()).isEqualTo("late");
        assertThat(two.get(30, TimeUnit.SECONDS).text()).isEqualTo("late");
    }

    @Test
    void sessionsOfOneAuthenticatedCallerShareOneShare() throws Exception {
        start(new Limits(Limits.Breaker.ofDefaults(), 64, Duration.ZERO, Optional.empty())
                .withMaxConcurrentPerClient(2));
        McpClient first = session(AsCaller.apiKey("alice"), "10.0.0.1");
        McpClient second = session(AsCaller.apiKey("alice"), "10.0.0.2");
        McpClient third = session(AsCaller.apiKey("alice"), "10.0.0.3");
        McpClient bob = session(AsCaller.apiKey("bob"), "10.0.0.1");
        List.of(third, bob).forEach(McpClient::listTools); // what a client lists takes a place too: before
        var one = slow(first);
        var two = slow(second);
        awaitEntered(2);

        // A new session is not a new share: the caller is the same whatever it opens.
        assertThat(error(third.callTool("ok", Json.object())).get("code").asString()).isEqualTo("RATE_LIMITED");
        assertThat(bob.callTool("ok", Json.object()).text()).isEqualTo("fine");

        gate.release(2);
        assertThat(one.get(30, TimeUnit.SECONDS).text()).isEqualTo("late");
        assertThat(two.get(30, TimeUnit.SECONDS).text()).isEqualTo("late");
    }

    /** A session-based client the transport authenticated as {@code caller}, from {@code address}. */
    private McpClient session(Caller caller, String address) {
        McpClient client = McpClient.builder("test", "1").protocolVersion(ProtocolVersion.latestSessionBased())
                .requestTimeout(Duration.ofSeconds(30)).connect(AsCaller.via(gateway, caller, address));
        clients.add(client);
        return client;
    }
}
