package dev.warden.core.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/** Asks between replicas: answered by the replica asked, or a stackless failure naming why. */
class ReplicaCallsTest {

    private final InProcessReplicas hub = InProcessReplicas.hub();
    private final ReplicaBus a = hub.join("a");
    private final ReplicaBus b = hub.join("b");
    private final ReplicaCalls asker = ReplicaCalls.of(a);
    private final ReplicaCalls answerer = ReplicaCalls.of(b);

    @Test
    void theReplicaAskedAnswers() {
        answerer.serve("echo", body -> "b heard " + body);

        assertThat(asker.call("b", "echo", "hello", Duration.ofSeconds(10)).join()).isEqualTo("b heard hello");
    }

    @Test
    void anAskToAReplicaThatIsDownFailsAtOnce() {
        answerer.serve("echo", body -> body);
        hub.stop("b");

        assertThatThrownBy(() -> asker.call("b", "echo", "x", Duration.ofSeconds(10)).join())
                .isInstanceOf(CompletionException.class).cause()
                .isInstanceOf(ReplicaUnreachableException.class).hasMessage("replica b is down")
                .satisfies(e -> assertThat(e.getStackTrace()).isEmpty());
    }

    @Test
    void anAskTheBusCannotSendFails() {
        hub.unreachable(true);

        assertThatThrownBy(() -> asker.call("b", "echo", "x", Duration.ofSeconds(10)).join())
                .cause().hasMessage("the replicas' bus is unreachable");
    }

    @Test
    void anAskNobodyAnswersRunsOutAtItsDeadline() {
        // b serves nothing on this topic: the ask is dropped there
        assertThatThrownBy(() -> asker.call("b", "silent", "x", Duration.ofMillis(50)).join())
                .cause().isInstanceOf(ReplicaUnreachableException.class)
                .hasMessageContaining("did not answer");
    }

    @Test
    void anAnswerThatFailsReachesTheAskerWithoutItsDetail() {
        answerer.serve("boom", body -> {
            throw new IllegalStateException("secret detail /srv/app");
        });

        assertThatThrownBy(() -> asker.call("b", "boom", "x", Duration.ofSeconds(10)).join())
                .cause().hasMessage("replica b could not answer on boom");
    }

    @Test
    void idsAndTopicsAreShortWords() {
        assertThatThrownBy(() -> hub.join("a b")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("replica id must be 1-32 of [A-Za-z0-9_.-], not 'a b'");
        assertThatThrownBy(() -> hub.join("a")).hasMessage("replica id 'a' is taken");
    }

    @Test
    void componentsOfOneReplicaShareItsAsksSoNoneTakesAnothersReplies() {
        ReplicaBus c = hub.join("c");
        ReplicaBus d = hub.join("d");
        ReplicaCalls.shared(d).serve("one", body -> "one:" + body);
        ReplicaCalls.shared(d).serve("two", body -> "two:" + body);
        ReplicaCalls sessions = ReplicaCalls.shared(c);
        ReplicaCalls parked = ReplicaCalls.shared(c);

        assertThat(parked).isSameAs(sessions);
        assertThat(sessions.call("d", "one", "x", Duration.ofSeconds(10)).join()).isEqualTo("one:x");
        assertThat(parked.call("d", "two", "y", Duration.ofSeconds(10)).join()).isEqualTo("two:y");
    }
}
