package dev.warden.audit.report;

import dev.warden.audit.Report;
import java.util.Objects;
import java.util.function.Function;

/**
 * The formats {@code warden audit --format} writes, each made from the {@link Report} alone. None
 * holds a leaked value: findings show their evidence as category and fingerprint only.
 */
public enum ReportFormat {
    /** A summary for a terminal: grade, counts, findings grouped by tool with what to do. */
    TEXT("txt", TextReport::render),
    /** A stable machine-readable document (its {@code schemaVersion} changes when its shape does). */
    JSON("json", JsonReport::render),
    /** SARIF 2.1.0, for code-scanning views: one result per finding, located by tool. */
    SARIF("sarif", SarifReport::render),
    /** For a pull-request comment: the grade and a table of findings, worst first. */
    MARKDOWN("md", MarkdownReport::render),
    /** One self-contained page (no network when viewed): findings filterable by severity. */
    HTML("html", HtmlReport::render);

    private final String fileExtension;
    private final Function<Report, String> renderer;

    ReportFormat(String fileExtension, Function<Report, String> renderer) {
        this.fileExtension = fileExtension;
        this.renderer = renderer;
    }

    /** The report in this format; text formats end with a newline. */
    public String render(Report report) {
        return renderer.apply(Objects.requireNonNull(report, "report"));
    }

    /** The file name extension, without the dot: {@code sarif}, {@code html}, … */
    public String fileExtension() {
        return fileExtension;
    }
}
