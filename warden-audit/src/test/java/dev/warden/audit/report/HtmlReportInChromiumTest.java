package dev.warden.audit.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.warden.audit.Report;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTML report as a browser shows it: Debian's headless Chromium ({@code apt-get install
 * chromium}) loads the file, runs its one script, and dumps the DOM. Skipped where Chromium is not
 * installed. The screenshot it takes (target/audit-report.png) is docs/audit-report.png (docs/guides/audit-a-server.md).
 */
class HtmlReportInChromiumTest {

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");

    @TempDir
    static Path dir;

    @BeforeAll
    static void chromiumIsInstalled() {
        assumeTrue(Files.isExecutable(CHROMIUM), "Debian's chromium is not installed at /usr/bin/chromium");
    }

    @Test
    void theFindingsAreInThePageAndItsScriptFilteredThem() throws Exception {
        String dom = dumpDom(SampleReports.everyRule(), "every-rule.html");

        int rows = SampleReports.everyRule().findings().size();
        assertThat(dom).contains("WDN-L001", "WDN-D005", "CWE-1333", rows + " of " + rows + " findings shown");
    }

    @Test
    void noScriptRunsFromAToolsName() throws Exception {
        String dom = dumpDom(SampleReports.hostile(), "hostile.html");

        assertThat(dom).contains("&lt;script&gt;alert(1)&lt;/script&gt;", "3 of 3 findings shown")
                .doesNotContain("data-pwned=\"", SampleReports.SCRIPT_TOOL, "<img");
        assertThat(dom.split("<script", -1)).hasSize(2);
    }

    @Test
    void aScreenshotIsTaken() throws Exception {
        Path html = write(SampleReports.realistic(), "screenshot.html");
        Path png = Path.of("target", "audit-report.png").toAbsolutePath();
        Files.deleteIfExists(png);

        run(List.of("--screenshot=" + png, "--window-size=1200,900", "--hide-scrollbars", html.toUri().toString()));

        assertThat(png).exists();
        assertThat(Files.size(png)).isGreaterThan(10_000);
    }

    private static String dumpDom(Report report, String name) throws Exception {
        return run(List.of("--dump-dom", write(report, name).toUri().toString()));
    }

    private static Path write(Report report, String name) throws IOException {
        return Files.writeString(dir.resolve(name), ReportFormat.HTML.render(report), StandardCharsets.UTF_8);
    }

    private static String run(List<String> args) throws Exception {
        List<String> command = new ArrayList<>(List.of(CHROMIUM.toString(), "--headless", "--disable-gpu", "--no-sandbox",
                "--no-first-run", "--user-data-dir=" + dir.resolve("profile"),
                // No connections of Chromium's own: this machine's network is closed, and the page needs none.
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-quic"));
        command.addAll(args);
        Process chromium = new ProcessBuilder(command).redirectError(dir.resolve("chromium.log").toFile()).start();
        byte[] out = chromium.getInputStream().readAllBytes();
        assertThat(chromium.waitFor(60, TimeUnit.SECONDS)).as("chromium finished").isTrue();
        assertThat(chromium.exitValue()).as("chromium's exit code").isZero();
        return new String(out, StandardCharsets.UTF_8);
    }
}
