package dev.warden.http.server.internal.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.cluster.InProcessReplicas;
import dev.warden.core.json.Json;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/** What a portable session changed, as the replicas share it. */
class SessionFactsTest {

    @Test
    void theRecordsKeyIsADigestThatNeverCarriesTheSessionId() {
        String id = "ws1.k1.some-sealed-session-id";

        assertThat(SessionFacts.key(id)).startsWith("warden.s.").doesNotContain(id).hasSize(9 + 43)
                .isEqualTo(SessionFacts.key(id)).isNotEqualTo(SessionFacts.key(id + "x"));
    }

    @Test
    void aRestoredCopyGetsTheLevelFirstThenEachSubscription() {
        var changes = SessionFacts.changesIn(Map.of("sub:file:///b", "1", "level", "{\"level\":\"error\"}",
                "sub:file:///a", "1", "ended", "1"));

        assertThat(changes).extracting(SessionFacts.Change::method)
                .containsExactly("logging/setLevel", "resources/subscribe", "resources/subscribe");
        assertThat(changes.get(0).params().path("level").asString()).isEqualTo("error");
        assertThat(changes.get(1).params().path("uri").asString()).isEqualTo("file:///a");
    }

    @Test
    void onlyTheLevelAndSubscriptionsChangeWhatLaterRequestsDependOn() {
        assertThat(SessionFacts.changes("logging/setLevel")).isTrue();
        assertThat(SessionFacts.changes("resources/subscribe")).isTrue();
        assertThat(SessionFacts.changes("resources/unsubscribe")).isTrue();
        assertThat(SessionFacts.changes("tools/call")).isFalse();
    }

    @Test
    void anUnsubscriptionTakesTheUriOutOfWhatIsReplayedAndTheLastLevelWins() {
        SessionFacts facts = new SessionFacts(InProcessReplicas.hub().join("a"), Duration.ofHours(1));
        String key = SessionFacts.key("s");
        var a = Json.object().put("uri", "file:///a");
        var b = Json.object().put("uri", "file:///b");

        facts.record(key, "resources/subscribe", Optional.of(a));
        facts.record(key, "resources/subscribe", Optional.of(b));
        facts.record(key, "resources/unsubscribe", Optional.of(a));
        facts.record(key, "logging/setLevel", Optional.of(Json.object().put("level", "debug")));
        facts.record(key, "logging/setLevel", Optional.of(Json.object().put("level", "error")));

        var changes = SessionFacts.changesIn(facts.read(key).orElseThrow());
        assertThat(changes).hasSize(2);
        assertThat(changes.get(0).params().path("level").asString()).isEqualTo("error");
        assertThat(changes.get(1).params().path("uri").asString()).isEqualTo("file:///b");
    }

    @Test
    void aStoreThatCannotAnswerLeavesTheSessionToThisReplica() {
        InProcessReplicas hub = InProcessReplicas.hub();
        SessionFacts facts = new SessionFacts(hub.join("a"), Duration.ofHours(1));
        hub.unreachable(true);

        facts.record(SessionFacts.key("s"), "logging/setLevel", Optional.of(Json.object().put("level", "error")));

        assertThat(facts.end(SessionFacts.key("s"))).isFalse();
        assertThat(facts.read(SessionFacts.key("s"))).isEmpty();
    }

    @Test
    void aSessionsRecordHoldsAtMostTheCapOfSubscriptions() {
        InProcessReplicas hub = InProcessReplicas.hub();
        SessionFacts facts = new SessionFacts(hub.join("a"), Duration.ofHours(1));
        for (int i = 0; i < SessionFacts.MAX_SUBSCRIPTIONS; i++) {
            assertThat(facts.record("k", "resources/subscribe", Optional.of(uri("file:///" + i)))).isTrue();
        }

        assertThat(facts.record("k", "resources/subscribe", Optional.of(uri("file:///one-more")))).isFalse();
        assertThat(facts.record("k", "resources/subscribe", Optional.of(uri("file:///7")))).isTrue(); // held already
        assertThat(facts.read("k").orElseThrow()).hasSize(SessionFacts.MAX_SUBSCRIPTIONS)
                .doesNotContainKey("sub:file:///one-more");
    }

    private static ObjectNode uri(String uri) {
        ObjectNode params = Json.object();
        params.put("uri", uri);
        return params;
    }
}
