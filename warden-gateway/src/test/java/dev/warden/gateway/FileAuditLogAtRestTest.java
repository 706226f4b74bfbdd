package dev.warden.gateway;

import dev.warden.testkit.MutableClock;
import dev.warden.testkit.ReadOnlyDirectory;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.warden.core.segment.Retention;
import dev.warden.gateway.auditlog.AuditRecord;
import dev.warden.gateway.auditlog.FileAuditLog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the audit log leaves on disk: owner-only files, bounded in size and age; a disk that fails is the caller's to know. */
class FileAuditLogAtRestTest {

    private static final Instant T0 = Instant.parse("2026-11-01T12:00:00Z");
    private static final Retention SMALL = new Retention(64 * 1024, Duration.ofDays(14));

    @TempDir
    Path tmp;

    private final MutableClock clock = new MutableClock(T0);

    private AuditRecord record(String tool) {
        return new AuditRecord(clock.instant(), "claude-ai#3", Optional.of("crm"), "tools/call", Optional.of(tool),
                Duration.ofMillis(3), AuditRecord.Outcome.OK, Optional.empty(), Optional.empty());
    }

    private static List<Path> files(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.sorted().toList();
        }
    }

    private static long totalBytes(Path dir) throws IOException {
        return files(dir).stream().mapToLong(p -> p.toFile().length()).sum();
    }

    private static String all(Path dir) throws IOException {
        StringBuilder b = new StringBuilder();
        for (Path p : files(dir)) {
            b.append(Files.readString(p));
        }
        return b.toString();
    }

    @Test
    void theDirectoryItCreatesAndItsFilesAreOwnerOnly() throws Exception {
        Path dir = tmp.resolve("audit");
        try (FileAuditLog log = FileAuditLog.open(dir, SMALL, clock)) {
            log.record(record("lookup"));
        }
        assertThat(Files.getPosixFilePermissions(dir)).isEqualTo(PosixFilePermissions.fromString("rwx------"));
        for (Path file : files(dir)) {
            assertThat(Files.getPosixFilePermissions(file)).isEqualTo(PosixFilePermissions.fromString("rw-------"));
        }
    }

    @Test
    void theOldestRecordsGoWhenTheLogOutgrowsItsSizeEvenWithinOneDay() throws Exception {
        try (FileAuditLog log = FileAuditLog.open(tmp, SMALL, clock)) {
            for (int i = 0; i < 1000; i++) { // about 170 KiB of records, in one day
                log.record(record("tool-" + i));
                assertThat(totalBytes(tmp)).isLessThanOrEqualTo(SMALL.maxBytes());
            }
        }
        String kept = all(tmp);
        assertThat(kept).contains("\"tool-999\"").doesNotContain("\"tool-0\"");
    }

    @Test
    void daysOlderThanTheMaxAgeGoAsNewRecordsAreWritten() throws Exception {
        try (FileAuditLog log = FileAuditLog.open(tmp, SMALL, clock)) {
            log.record(record("old"));
            clock.advance(Duration.ofDays(15));
            log.record(record("new"));
        }
        assertThat(all(tmp)).contains("\"new\"").doesNotContain("\"old\"");
    }

    @Test
    void daysOlderThanTheMaxAgeGoAtOpen() throws Exception {
        try (FileAuditLog log = FileAuditLog.open(tmp, SMALL, clock)) {
            log.record(record("old"));
        }
        clock.advance(Duration.ofDays(15));
        try (FileAuditLog log = FileAuditLog.open(tmp, SMALL, clock)) {
            assertThat(files(tmp)).isEmpty();
        }
    }

    @Test
    void aReadOnlyDirectoryDoesNotFailTheOpenButEachRecordThenSaysItWasNotWritten() throws Exception {
        Path dir = tmp.resolve("audit");
        try (ReadOnlyDirectory ro = ReadOnlyDirectory.make(dir);
             FileAuditLog log = FileAuditLog.open(dir, SMALL, clock)) {
            assertThatThrownBy(() -> log.record(record("lost"))).isInstanceOf(IOException.class);
            ro.close();
            assertThatCode(() -> log.record(record("kept"))).doesNotThrowAnyException();
            assertThat(all(dir)).contains("\"kept\"").doesNotContain("\"lost\"");
        }
    }
}
