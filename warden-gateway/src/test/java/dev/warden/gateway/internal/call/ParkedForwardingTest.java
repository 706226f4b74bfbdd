package dev.warden.gateway.internal.call;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.warden.core.cluster.InProcessReplicas;
import dev.warden.core.cluster.ReplicaBus;
import dev.warden.core.cluster.ReplicaCalls;
import dev.warden.core.error.ProtocolException;
import dev.warden.core.identity.Caller;
import dev.warden.core.incident.ErrorBoundary;
import dev.warden.core.json.Json;
import dev.warden.core.jsonrpc.RequestId;
import dev.warden.core.session.RequestContext;
import dev.warden.core.session.Session;
import dev.warden.core.transport.AuthenticatedPeer;
import dev.warden.core.transport.PeerAddress;
import dev.warden.core.transport.Transport;
import dev.warden.gateway.health.Lifecycle;
import dev.warden.gateway.internal.parked.ParkedTokens;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What crosses from the replica a round reached to the one holding its call: the client as the
 * first saw it, the round's progress back, its cancellation there, the owner's answer as rendered.
 */
class ParkedForwardingTest {

    private final InProcessReplicas hub = InProcessReplicas.hub();
    private final ReplicaBus a = hub.join("a.1");
    private final ReplicaBus b = hub.join("b");
    private final ParkedForwarding here = ParkedForwarding.over(b, ReplicaCalls.shared(b));
    private final BlockingQueue<JsonNode> ownerGot = new LinkedBlockingQueue<>();
    private final List<String> progress = new CopyOnWriteArrayList<>();
    private final Lifecycle ownerLife = new Lifecycle(java.time.Clock.systemUTC());

    /** The owner: a connection that records what it is sent and answers with {@code answer} (none: never). */
    private void owner(Optional<String> answer, boolean withProgress) {
        ParkedForwarding owner = ParkedForwarding.over(a, ReplicaCalls.shared(a));
        Consumer<Transport> connect = t -> t.start(new Transport.Listener() {
            @Override
            public void onFrame(byte[] frame) {
                JsonNode message = Json.mapper().readTree(new String(frame, StandardCharsets.UTF_8));
                ObjectNode seen = (ObjectNode) message.deepCopy();
                seen.put("seenAddress", ((PeerAddress) t).peerAddress());
                ((AuthenticatedPeer) t).caller().ifPresent(c -> seen.put("seenSubject", c.subject())
                        .put("seenScopes", String.join(",", c.scopes().stream().sorted().toList()))
                        .put("seenToken", c.token().isPresent()));
                ownerGot.add(seen);
                if (!message.has("id") || answer.isEmpty()) {
                    return;
                }
                if (withProgress) {
                    t.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{"
                            + "\"progressToken\":\"p\",\"progress\":1,\"total\":2,\"message\":\"half way\"}}");
                }
                t.send("{\"jsonrpc\":\"2.0\",\"id\":" + message.get("id") + "," + answer.get() + "}");
            }

            @Override
            public void onFrameError(ProtocolException error) {
            }

            @Override
            public void onClose() {
            }
        });
        owner.serve(connect, Duration.ofSeconds(5), "warden-parked.a.1.xyz"::equals, ownerLife,
                ErrorBoundary.ofDefaults());
    }

    private final RequestContext round = new RequestContext() {
        @Override
        public RequestId id() {
            return new RequestId.Number(7);
        }

        @Override
        public String method() {
            return "tools/call";
        }

        @Override
        public Optional<JsonNode> params() {
            return Optional.of(Json.mapper().readTree("{\"name\":\"ask\",\"requestState\":\"warden-parked.a.1.xyz\","
                    + "\"inputResponses\":{},\"_meta\":{\"progressToken\":\"mine\","
                    + "\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
                    + "\"io.modelcontextprotocol/clientCapabilities\":{}}}"));
        }

        @Override
        public Session session() {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean cancelled() {
            return false;
        }

        @Override
        public void progress(double p, OptionalDouble total, Optional<String> message) {
            progress.add(p + "/" + total.orElse(-1) + " " + message.orElse(""));
        }

        @Override
        public boolean closeStream() {
            return false;
        }
    };

    private static final Caller ALICE = new Caller("alice", Optional.of("app"), "https://issuer.example",
            Set.of("tools:read", "tools:call"), Map.of("groups", List.of("staff")), Caller.Kind.JWT,
            Optional.of(new dev.warden.core.identity.PresentedToken("secret-token")));

    private JsonNode forward(Optional<Caller> caller) throws Exception {
        return here.forward("a.1", round, Optional.of("10.0.0.9"), caller, Duration.ofSeconds(5),
                ErrorBoundary.ofDefaults());
    }

    @Test
    void aRoundNamingAnotherReplicaGoesThereAndOneNamingThisOrNoneStaysHere() {
        assertThat(here.ownerElsewhere(round)).contains("a.1");
        assertThat(ParkedTokens.owner("warden-parked.b.abc")).contains("b");
        assertThat(ParkedTokens.owner("warden-parked.abc")).as("a single process's state").isEmpty();
        assertThat(ParkedTokens.owner("upstream-state")).isEmpty();
        assertThat(ParkedForwarding.none().ownerElsewhere(round)).as("one process forwards nothing").isEmpty();
    }

    @Test
    void theOwnerGetsTheRequestAsSentAndTheClientAsThisReplicaSawItWithoutItsCredential() throws Exception {
        owner(Optional.of("\"result\":{\"content\":[]}"), false);

        forward(Optional.of(ALICE));

        JsonNode seen = ownerGot.poll(5, TimeUnit.SECONDS);
        assertThat(seen.path("id").asInt()).isEqualTo(7);
        assertThat(seen.path("params").path("requestState").asString()).isEqualTo("warden-parked.a.1.xyz");
        assertThat(seen.path("params").path("_meta").path("progressToken").asString()).isEqualTo("mine");
        assertThat(seen.path("seenAddress").asString()).isEqualTo("10.0.0.9");
        assertThat(seen.path("seenSubject").asString()).isEqualTo("alice");
        assertThat(seen.path("seenScopes").asString()).isEqualTo("tools:call,tools:read");
        assertThat(seen.path("seenToken").asBoolean()).as("the credential stays where it was presented").isFalse();
    }

    @Test
    void theOwnersResultIsTheAnswerAndItsProgressReachesThisRoundsClientFirst() throws Exception {
        owner(Optional.of("\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"done\"}]}"), true);

        JsonNode result = forward(Optional.empty());

        assertThat(result.at("/content/0/text").asString()).isEqualTo("done");
        assertThat(progress).containsExactly("1.0/2.0 half way");
    }

    @Test
    void theOwnersErrorIsPassedOnAsItRenderedItRefIncluded() throws Exception {
        owner(Optional.of("\"error\":{\"code\":-32602,\"message\":\"Invalid params: the requestState is unknown\","
                + "\"data\":{\"code\":\"VALIDATION_ERROR\",\"retryable\":false,\"ref\":\"ref_abcdefghijkmnpqr\"}}"),
                false);

        assertThatThrownBy(() -> forward(Optional.empty())).isInstanceOfSatisfying(ProtocolException.class, e -> {
            assertThat(e.code()).isEqualTo(-32602);
            assertThat(e.getMessage()).isEqualTo("Invalid params: the requestState is unknown");
            assertThat(e.ref()).map(dev.warden.core.error.Ref::value).contains("ref_abcdefghijkmnpqr");
        });
    }

    @Test
    void aRoundItsClientCancelsHereIsCancelledOnTheOwner() throws Exception {
        owner(Optional.empty(), false);
        Thread waiting = Thread.ofVirtual().start(() -> {
            try {
                forward(Optional.empty());
            } catch (Exception e) {
                // cancelled: no answer is wanted any more
            }
        });
        assertThat(ownerGot.poll(5, TimeUnit.SECONDS)).as("the round reached its owner").isNotNull();

        waiting.interrupt();

        JsonNode cancelled = ownerGot.poll(5, TimeUnit.SECONDS);
        assertThat(cancelled.path("method").asString()).isEqualTo("notifications/cancelled");
        assertThat(cancelled.path("params").path("requestId").asInt()).isEqualTo(7);
    }

    @Test
    void anOwnerThatGoesDownWhileTheRoundWaitsEndsItRetryably() throws Exception {
        owner(Optional.empty(), false);
        Thread.ofVirtual().start(() -> {
            try {
                assertThat(ownerGot.poll(5, TimeUnit.SECONDS)).isNotNull();
            } catch (InterruptedException e) {
                return;
            }
            hub.stop("a.1");
        });

        assertThatThrownBy(() -> forward(Optional.empty())).isInstanceOfSatisfying(ProtocolException.class, e -> {
            assertThat(e.code()).isEqualTo(-32603);
            assertThat(e.getMessage()).contains("call the tool again");
            assertThat(e.failure()).hasValueSatisfying(f -> assertThat(f.retryable()).isTrue());
        });
    }
}
