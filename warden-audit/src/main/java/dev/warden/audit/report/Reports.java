package dev.warden.audit.report;

import dev.warden.audit.Report;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/** Writes a report in several formats at once: {@code --out}. */
public final class Reports {

    /** The file name used when {@code --out} names a directory. */
    public static final String DEFAULT_NAME = "warden-audit";

    private Reports() {
    }

    /**
     * Writes {@code report} once per format, UTF-8, and returns where each went. {@code out} is an
     * existing directory (the files are {@code warden-audit.<ext>} in it) or a base path whose own
     * extension, if it is one of the formats', is dropped: {@code out/audit} and {@code
     * out/audit.sarif} both give {@code out/audit.sarif} and {@code out/audit.html}. Missing parent
     * directories are made. Each file is written beside its target and moved into place, so a reader
     * never sees half a report.
     *
     * @throws IllegalArgumentException when {@code formats} is empty
     */
    public static Map<ReportFormat, Path> write(Report report, Set<ReportFormat> formats, Path out)
            throws IOException {
        Objects.requireNonNull(report, "report");
        Objects.requireNonNull(out, "out");
        if (formats.isEmpty()) {
            throw new IllegalArgumentException("name at least one format to write");
        }
        Map<ReportFormat, Path> written = new EnumMap<>(ReportFormat.class);
        for (ReportFormat format : formats) {
            Path target = target(out, format);
            Path parent = target.toAbsolutePath().getParent();
            Files.createDirectories(parent);
            Path partial = Files.createTempFile(parent, "." + target.getFileName(), ".partial");
            try {
                Files.writeString(partial, format.render(report), StandardCharsets.UTF_8);
                Files.move(partial, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } finally {
                Files.deleteIfExists(partial);
            }
            written.put(format, target);
        }
        return Collections.unmodifiableMap(written);
    }

    /** Where {@code format} goes for {@code --out out}. */
    public static Path target(Path out, ReportFormat format) {
        if (Files.isDirectory(out)) {
            return out.resolve(DEFAULT_NAME + "." + format.fileExtension());
        }
        String name = out.getFileName().toString();
        for (ReportFormat known : ReportFormat.values()) {
            String extension = "." + known.fileExtension();
            if (name.endsWith(extension) && name.length() > extension.length()) {
                name = name.substring(0, name.length() - extension.length());
                break;
            }
        }
        return out.resolveSibling(name + "." + format.fileExtension());
    }
}
