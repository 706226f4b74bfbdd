package dev.warden.audit.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class HtmlReportTest {

    @Test
    void namesFromTheServerAreEscapedNotMarkup() {
        String html = ReportFormat.HTML.render(SampleReports.hostile());

        assertThat(html).doesNotContain(SampleReports.SCRIPT_TOOL, "<img", "<b>leaky", "<i>delete_all")
                .contains("&lt;script&gt;alert(1)&lt;/script&gt;", "&lt;b&gt;leaky&lt;/b&gt;");
    }

    @Test
    void controlAndDirectionCharactersAreShownAsEscapes() {
        String html = ReportFormat.HTML.render(SampleReports.hostile());

        assertThat(html).doesNotContain("\u001b", "\u202E").contains("\\u001B[2J\\u202Etxt.exe");
    }

    @Test
    void thePageHasExactlyOneScriptAndFetchesNothing() {
        String html = ReportFormat.HTML.render(SampleReports.everyRule());

        assertThat(html.split("<script", -1)).hasSize(2);
        assertThat(html).doesNotContain("<link", "src=", "url(", "@import", "http://", "https://");
    }

    @Test
    void theContentSecurityPolicyAllowsOnlyThePagesOwnScriptByItsHash() throws Exception {
        String html = ReportFormat.HTML.render(SampleReports.everyRule());
        Matcher script = Pattern.compile("<script>(.*)</script>", Pattern.DOTALL).matcher(html);
        assertThat(script.find()).isTrue();
        String hash = Base64.getEncoder().encodeToString(
                MessageDigest.getInstance("SHA-256").digest(script.group(1).getBytes(StandardCharsets.UTF_8)));

        assertThat(html).contains("default-src 'none'", "script-src 'sha256-" + hash + "'");
    }

    @Test
    void theHeaderShowsGradeServerAndTheFormulaInAFootnote() {
        String html = ReportFormat.HTML.render(SampleReports.everyRule());

        assertThat(html).contains("<div class=\"letter\">F</div>", "example-servers/everything 1.0.0",
                "<p id=\"formula\"><sup>1</sup> Grade: 100 - (25 per high");
    }

    @Test
    void eachFindingIsARowWithItsSeverityForTheFilter() {
        String html = ReportFormat.HTML.render(SampleReports.everyRule());

        assertThat(html.split("<tr data-severity=", -1)).hasSize(SampleReports.everyRule().findings().size() + 1);
        assertThat(html).contains("<input type=\"checkbox\" checked data-severity=\"HIGH\">", "CWE-209", "WDN-D005");
    }

    @Test
    void anEmptyReportSaysSoInsteadOfAnEmptyTable() {
        String html = ReportFormat.HTML.render(SampleReports.empty());

        assertThat(html).contains("No findings.").doesNotContain("<table");
    }

    @Test
    void anIncompleteAuditShowsNoLetterAndSaysWhy() {
        String html = ReportFormat.HTML.render(SampleReports.incomplete());

        assertThat(html).contains("<div class=\"grade incomplete\" id=\"grade\"><div class=\"letter\">?</div>",
                "not graded", "<strong>Incomplete, not graded</strong>: no tool was probed: the tools listing did not end");
    }
}
