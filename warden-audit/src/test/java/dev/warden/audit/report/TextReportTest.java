package dev.warden.audit.report;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TextReportTest {

    @Test
    void theSummaryShowsGradeAndCountsBySeverity() {
        String text = ReportFormat.TEXT.render(SampleReports.realistic());

        assertThat(text).contains("grade:    F (0/100)", "findings: 3 high, 4 medium, 4 low, 0 note", "requests: 318 in 8.7 s");
    }

    @Test
    void findingsAreGroupedUnderTheirToolWorstToolFirst() {
        String text = ReportFormat.TEXT.render(SampleReports.realistic());

        assertThat(text.indexOf("\ntool send_report\n")).isPositive().isLessThan(text.indexOf("\ntool read_file\n"));
        assertThat(text.indexOf("\ntool read_file\n")).isLessThan(text.indexOf("\ntool query\n"));
        assertThat(text).containsOnlyOnce("\ntool read_file\n").contains("\n(the server as a whole)\n");
    }

    @Test
    void aFindingShowsRuleEvidenceAndRemediation() {
        String text = ReportFormat.TEXT.render(SampleReports.realistic());

        assertThat(text).contains("HIGH   WDN-L001  A failure shows a stack trace (CWE-209)",
                "where:    /result/content/0/text", "evidence: stack-trace, fingerprint ",
                "fix:      Catch failures at the tool boundary");
    }

    @Test
    void aToolNameCannotDriveTheTerminal() {
        String text = ReportFormat.TEXT.render(SampleReports.hostile());

        assertThat(text).doesNotContain("\u001b", "\u202E").contains("tool ls\\u001B[2J\\u202Etxt.exe");
    }

    @Test
    void anEmptyReportSaysSo() {
        assertThat(ReportFormat.TEXT.render(SampleReports.empty())).contains("grade:    A (100/100)", "No findings.");
    }
}
