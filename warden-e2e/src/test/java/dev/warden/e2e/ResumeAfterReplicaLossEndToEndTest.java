package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * {@code kill -9} of the replica serving a slow call, under the official TypeScript SDK client:
 * two {@code warden gateway} replicas with portable sessions on one Redis; the client's session
 * starts on A; after the call's first progress A is killed and the client's requests go to B (as a
 * load balancer would send them). The SDK resumes the call's stream on B with Last-Event-ID; B sees
 * that the stream was A's and that A is down, and answers the call with a retryable error at once
 * (not after the SDK's 60 s request timeout); the same call sent again succeeds on B, in the same
 * session.
 */
class ResumeAfterReplicaLossEndToEndTest {

    private static final Duration GUARD = Duration.ofSeconds(90);
    private PortableReplicaPair replicas;
    private HttpGateway a;
    private LinePeer client;

    @AfterEach
    void stop() throws Exception {
        if (client != null) {
            client.destroy();
        }
        if (replicas != null) {
            replicas.close();
        }
    }

    @Test
    void aCallInFlightOnAKilledReplicaFailsRetryablyAtOnceAndSucceedsWhenSentAgain() throws Exception {
        replicas = PortableReplicaPair.start();
        a = replicas.a;

        client = new LinePeer(Processes.node("resume-after-kill.mjs", a.url(), replicas.b.url()));
        assertThat(client.nextLine(GUARD)).isEqualTo("{\"event\":\"progress\"}");
        ProcessHandle.of(a.peer().pid()).orElseThrow().destroyForcibly(); // kill -9
        assertThat(a.peer().awaitExit(GUARD)).isEqualTo(137);
        client.send("killed");

        JsonNode out = Json.mapper().readTree(client.nextLine(GUARD));
        System.out.println("resume-after-kill e2e: " + out);
        JsonNode slow = out.get("slow");
        assertThat(slow.get("ok").asBoolean()).as(slow.toString()).isFalse();
        assertThat(slow.at("/error/code").asInt()).as("not the SDK's request timeout (-32001)").isEqualTo(-32603);
        assertThat(slow.at("/error/message").asString()).contains("stopped before answering");
        assertThat(slow.at("/error/data/retryable").asBoolean()).isTrue();
        JsonNode again = out.get("again");
        assertThat(again.get("ok").asBoolean()).as(again.toString()).isTrue();
        assertThat(again.at("/value/content/0/text").asString()).contains("Long running operation completed");
        assertThat(out.get("sameSession").asBoolean()).isTrue();
    }
}
