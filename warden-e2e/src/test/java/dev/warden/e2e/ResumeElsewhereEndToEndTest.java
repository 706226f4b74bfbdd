package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Resuming a call's stream on the live replica that does not serve it, under the official
 * TypeScript SDK client: two {@code warden gateway} replicas with portable sessions on one Redis,
 * the session on A. A network blip cuts a slow call's connection to A after its first progress and
 * the client's requests go to B from then on: the SDK resumes with Last-Event-ID on B, which reads
 * the stream from A across the bus, and the call completes with its real result, no 400. A call
 * aborted by the client: the SDK resumes its ended stream on B and gets its end (200), not a 400.
 */
class ResumeElsewhereEndToEndTest {

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
    void aStreamResumedOnTheOtherLiveReplicaCompletesTheCallAndAnAbortedOnesEndIsNoError() throws Exception {
        replicas = PortableReplicaPair.start();
        a = replicas.a;

        client = new LinePeer(Processes.node("resume-elsewhere.mjs", a.url(), replicas.b.url()));
        JsonNode out = Json.mapper().readTree(client.nextLine(GUARD));
        System.out.println("resume-elsewhere e2e: " + out);

        JsonNode blip = out.get("blip");
        assertThat(blip.get("ok").asBoolean()).as(blip.toString()).isTrue();
        assertThat(blip.at("/value/content/0/text").asString()).contains("Long running operation completed");
        List<JsonNode> requests = list(out.get("requests"));
        assertThat(requests).as("no request refused").noneMatch(r -> r.path("status").asInt() >= 400);
        assertThat(requests).as("the blip's resumption, on B").anyMatch(r -> r.path("phase").asString().equals("blip")
                && r.path("method").asString().equals("GET") && r.path("lastEventId").isString()
                && r.path("to").asString().equals("b") && r.path("status").asInt() == 200);
        assertThat(list(out.get("errors"))).as("nothing but the blip itself").allMatch(e ->
                e.path("phase").asString().equals("blip") && e.path("message").asString().contains("network blip"));

        assertThat(out.get("abort").get("ok").asBoolean()).isFalse(); // the client gave up on it
        assertThat(out.get("abortResumeSeen").asBoolean()).as(out.toString()).isTrue();
        assertThat(requests).as("the aborted call's resumption, on B: its end").anyMatch(r ->
                r.path("phase").asString().equals("abort") && r.path("lastEventId").isString()
                && r.path("to").asString().equals("b") && r.path("status").asInt() == 200);
        JsonNode again = out.get("again");
        assertThat(again.get("ok").asBoolean()).as(again.toString()).isTrue();
        assertThat(out.get("sameSession").asBoolean()).isTrue();
    }

    private static List<JsonNode> list(JsonNode array) {
        List<JsonNode> items = new ArrayList<>();
        array.forEach(items::add);
        return items;
    }
}
