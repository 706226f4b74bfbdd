package dev.warden.audit.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportsTest {

    @TempDir
    Path dir;

    @Test
    void severalFormatsGoBesideOneBasePath() throws Exception {
        Map<ReportFormat, Path> written = Reports.write(SampleReports.realistic(),
                EnumSet.of(ReportFormat.SARIF, ReportFormat.HTML, ReportFormat.JSON), dir.resolve("out/audit"));

        assertThat(written).containsOnly(
                Map.entry(ReportFormat.SARIF, dir.resolve("out/audit.sarif")),
                Map.entry(ReportFormat.HTML, dir.resolve("out/audit.html")),
                Map.entry(ReportFormat.JSON, dir.resolve("out/audit.json")));
        assertThat(Files.readString(dir.resolve("out/audit.sarif"))).isEqualTo(ReportFormat.SARIF.render(SampleReports.realistic()));
    }

    @Test
    void aBasePathWithAFormatsExtensionKeepsItsStem() {
        assertThat(Reports.target(dir.resolve("audit.sarif"), ReportFormat.SARIF)).isEqualTo(dir.resolve("audit.sarif"));
        assertThat(Reports.target(dir.resolve("audit.sarif"), ReportFormat.MARKDOWN)).isEqualTo(dir.resolve("audit.md"));
    }

    @Test
    void aDirectoryGetsTheDefaultName() {
        assertThat(Reports.target(dir, ReportFormat.TEXT)).isEqualTo(dir.resolve("warden-audit.txt"));
    }

    @Test
    void nothingIsLeftBesideTheReports() throws Exception {
        Reports.write(SampleReports.empty(), EnumSet.allOf(ReportFormat.class), dir);

        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString()))
                    .containsExactlyInAnyOrder("warden-audit.txt", "warden-audit.json", "warden-audit.sarif",
                            "warden-audit.md", "warden-audit.html");
        }
    }

    @Test
    void noFormatIsAMistake() {
        assertThatThrownBy(() -> Reports.write(SampleReports.empty(), Set.of(), dir))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least one format");
    }
}
