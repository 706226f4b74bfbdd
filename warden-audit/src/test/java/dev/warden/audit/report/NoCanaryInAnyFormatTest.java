package dev.warden.audit.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.audit.Report;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The report must not become the leak: evidence made from leaked values shows in no format. */
class NoCanaryInAnyFormatTest {

    static Stream<Arguments> formatsAndReports() {
        return Stream.of(ReportFormat.values()).flatMap(format -> Stream.of(
                Arguments.of(format, SampleReports.everyRule()),
                Arguments.of(format, SampleReports.realistic()),
                Arguments.of(format, SampleReports.hostile())));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("formatsAndReports")
    void noFormatHoldsTheLeakedValue(ReportFormat format, Report report) {
        String rendered = format.render(report);

        assertThat(rendered).doesNotContain(SampleReports.CANARY, "/srv/app/secrets.env");
    }
}
