package dev.warden.audit.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.audit.Finding;
import dev.warden.audit.Report;
import dev.warden.audit.Rule;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class FailOnTest {

    private static final Report CLEAN = SampleReports.empty();
    private static final Report WORST_LOW = with(Rule.REFLECTED_INPUT);
    private static final Report WORST_MEDIUM = with(Rule.LEAK_PATH, Rule.REFLECTED_INPUT);
    private static final Report WORST_HIGH = with(Rule.LEAK_STACK_TRACE);

    @Test
    void highFailsOnlyOnAHighFinding() {
        assertThat(List.of(CLEAN, WORST_LOW, WORST_MEDIUM, WORST_HIGH)).map(FailOn.HIGH::exitCode).containsExactly(0, 0, 0, 1);
    }

    @Test
    void mediumFailsOnAMediumOrHighFinding() {
        assertThat(List.of(CLEAN, WORST_LOW, WORST_MEDIUM, WORST_HIGH)).map(FailOn.MEDIUM::exitCode).containsExactly(0, 0, 1, 1);
    }

    @Test
    void lowFailsOnAnyLowOrWorseFinding() {
        assertThat(List.of(CLEAN, WORST_LOW, WORST_MEDIUM, WORST_HIGH)).map(FailOn.LOW::exitCode).containsExactly(0, 1, 1, 1);
    }

    @Test
    void noneNeverFails() {
        assertThat(List.of(CLEAN, WORST_LOW, WORST_MEDIUM, WORST_HIGH, SampleReports.everyRule()))
                .map(FailOn.NONE::exitCode).containsOnly(0);
    }

    @Test
    void aCleanReportPassesEveryThreshold() {
        assertThat(List.of(FailOn.values())).map(f -> f.exitCode(CLEAN)).containsOnly(FailOn.OK);
    }

    private static Report with(Rule... rules) {
        return SampleReports.report(java.util.Arrays.stream(rules)
                .map(r -> new Finding(r, Optional.of("tool"), "probe", "/result", "found", Optional.empty())).toList());
    }
}
