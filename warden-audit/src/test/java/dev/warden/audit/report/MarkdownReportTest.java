package dev.warden.audit.report;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class MarkdownReportTest {

    @Test
    void theCommentHasTheGradeCountsAndOneRowPerFinding() {
        String md = ReportFormat.MARKDOWN.render(SampleReports.realistic());

        assertThat(md).startsWith("### warden audit: grade F (0/100)").contains("| High | 3 |", "| Medium | 4 |");
        assertThat(md.lines().filter(l -> l.startsWith("| High | WDN-") || l.startsWith("| Medium | WDN-")
                || l.startsWith("| Low | WDN-"))).hasSize(11);
    }

    @Test
    void eachRuleFoundHasItsRemediationOnce() {
        String md = ReportFormat.MARKDOWN.render(SampleReports.realistic());

        assertThat(md).containsOnlyOnce("- **WDN-L001** A failure shows a stack trace: Catch failures");
    }

    @Test
    void aToolNameCannotBreakTheTableOrBecomeMarkup() {
        String md = ReportFormat.MARKDOWN.render(SampleReports.hostile());

        String row = md.lines().filter(l -> l.startsWith("| Medium | WDN-D002")).findFirst().orElseThrow();
        assertThat(unescapedPipes(row)).isEqualTo(8);
        assertThat(row).contains("`` ls\\u001B[2J\\u202Etxt.exe \\| `x` @octocat ``");
        assertThat(md).contains("` <script>alert(1)</script> `").doesNotContain("\u001b", "\u202E");
    }

    @Test
    void codeSpansOutfenceTheTextsBackticks() {
        assertThat(MarkdownReport.code("a``b")).isEqualTo("``` a``b ```");
    }

    @Test
    void proseEscapesMarkdownAndDoesNotMention() {
        assertThat(MarkdownReport.prose("*x* [a](b) @team")).isEqualTo("\\*x\\* \\[a\\]\\(b\\) @\u200Bteam");
    }

    private static long unescapedPipes(String row) {
        char[] chars = row.toCharArray();
        return java.util.stream.IntStream.range(0, chars.length)
                .filter(i -> chars[i] == '|' && (i == 0 || chars[i - 1] != '\\')).count();
    }

}
