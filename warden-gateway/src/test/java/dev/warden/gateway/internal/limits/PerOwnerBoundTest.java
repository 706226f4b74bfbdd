package dev.warden.gateway.internal.limits;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** One owner filling its share forgets its own oldest entries, never another owner's. */
class PerOwnerBoundTest {

    @Test
    void anOwnerPastItsShareForgetsItsOwnOldestNotAnotherOwners() {
        PerOwnerBound<String, String, String> tasks = new PerOwnerBound<>(2, 5);
        tasks.putIfAbsent("bob", "b1", "bob's");
        for (int i = 1; i <= 6; i++) {
            tasks.putIfAbsent("alice", "a" + i, "alice's " + i);
        }
        assertThat(tasks.get("b1")).contains("bob's");
        assertThat(tasks.of("bob")).containsExactly("bob's");
        assertThat(tasks.of("alice")).containsExactly("alice's 5", "alice's 6");
        assertThat(tasks.get("a1")).isEmpty();
    }

    @Test
    void pastTheWholeBoundTheOldestOfAnyoneIsForgotten() {
        PerOwnerBound<String, String, String> tasks = new PerOwnerBound<>(2, 3);
        tasks.putIfAbsent("alice", "a1", "a1");
        tasks.putIfAbsent("bob", "b1", "b1");
        tasks.putIfAbsent("carol", "c1", "c1");
        tasks.putIfAbsent("dave", "d1", "d1");
        assertThat(tasks.get("a1")).isEmpty();
        assertThat(tasks.of("dave")).containsExactly("d1");
    }

    @Test
    void aKeyGivenTwiceIsNobodysNeverTheSecondOwners() {
        PerOwnerBound<String, String, String> tasks = new PerOwnerBound<>(2, 5);
        assertThat(tasks.putIfAbsent("alice", "task-1", "alice's")).isTrue();
        assertThat(tasks.putIfAbsent("bob", "task-1", "bob's")).isFalse();
        assertThat(tasks.get("task-1")).isEmpty();
        assertThat(tasks.of("alice")).isEmpty();
        assertThat(tasks.of("bob")).isEmpty();
    }
}
