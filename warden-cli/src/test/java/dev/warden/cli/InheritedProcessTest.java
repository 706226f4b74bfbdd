package dev.warden.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/**
 * The server the launcher hands over is taken only with the launcher's pipes: a process that
 * inherited the variable from a Warden further up (its environment passed on, its descriptors not)
 * takes nothing, and stops nothing. (The hand-over itself: {@code LauncherEndToEndTest}.)
 */
class InheritedProcessTest {

    @Test
    void withoutTheLaunchersPipesNothingIsTakenOver() {
        assertThat(InheritedProcess.handedOver()).isFalse();
        assertThat(InheritedProcess.of(ProcessHandle.current().pid(), OptionalInt.empty())).isEmpty();
    }

    @Test
    void theParentOfAProcessIsReadFromProc() {
        assertThat(InheritedProcess.parentOf(ProcessHandle.current().pid()))
                .isEqualTo(ProcessHandle.current().parent().map(ProcessHandle::pid).orElse(-1L));
    }
}
