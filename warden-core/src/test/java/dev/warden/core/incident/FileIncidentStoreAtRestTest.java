package dev.warden.core.incident;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.warden.core.error.ErrorCode;
import dev.warden.core.error.Ref;
import dev.warden.core.error.UnrecordedRefs;
import dev.warden.core.json.Json;
import dev.warden.core.sanitize.detection.Category;
import dev.warden.core.sanitize.detection.Finding;
import dev.warden.core.segment.Retention;
import dev.warden.testkit.MutableClock;
import dev.warden.testkit.ReadOnlyDirectory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the incident store leaves on disk: owner-only files, bounded in size and age, never a ref that cannot be found. */
class FileIncidentStoreAtRestTest {

    private static final Instant T0 = Instant.parse("2026-11-01T00:00:00Z");
    private static final Retention SMALL = new Retention(64 * 1024, Duration.ofDays(14));

    @TempDir
    Path tmp;

    private final MutableClock clock = new MutableClock(T0);
    private final List<LogRecord> logged = new ArrayList<>();
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord record) {
            synchronized (logged) {
                logged.add(record);
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    @BeforeEach
    void listen() {
        Logger.getLogger(FileIncidentStore.class.getName()).addHandler(capture);
    }

    @AfterEach
    void stopListening() {
        Logger.getLogger(FileIncidentStore.class.getName()).removeHandler(capture);
    }

    private Incident incident(String original) {
        return Incident.ofText(Ref.random(), clock.instant(), ErrorCode.UPSTREAM_ERROR, "tools/call",
                Optional.of("query"), Optional.of("db"), original, List.of());
    }

    private static String filler(int n) {
        return "x".repeat(n);
    }

    private static long totalBytes(Path dir) throws Exception {
        try (Stream<Path> files = Files.list(dir)) {
            return files.mapToLong(p -> p.toFile().length()).sum();
        }
    }

    @Test
    void theDirectoriesItCreatesAndEveryFileAreOwnerOnly() throws Exception {
        Path dir = tmp.resolve("warden").resolve("incidents");
        try (FileIncidentStore store = FileIncidentStore.open(dir, 4096, false, SMALL, clock)) {
            for (int i = 0; i < 10; i++) {
                store.record(incident(filler(1000))); // past one segment: a sealed one and its index
            }
        }
        assertThat(Files.getPosixFilePermissions(tmp.resolve("warden"))).isEqualTo(PosixFilePermissions.fromString("rwx------"));
        assertThat(Files.getPosixFilePermissions(dir)).isEqualTo(PosixFilePermissions.fromString("rwx------"));
        try (Stream<Path> files = Files.list(dir)) {
            List<Path> all = files.toList();
            assertThat(all).anyMatch(p -> p.toString().endsWith(".idx"));
            for (Path file : all) {
                assertThat(Files.getPosixFilePermissions(file)).as(file.toString())
                        .isEqualTo(PosixFilePermissions.fromString("rw-------"));
            }
        }
    }

    @Test
    void theOldestSegmentsGoWhenTheStoreOutgrowsItsSize() throws Exception {
        List<Incident> written = new ArrayList<>();
        try (FileIncidentStore store = FileIncidentStore.open(tmp, 4096, false, SMALL, clock)) {
            for (int i = 0; i < 120; i++) { // twice what the retained size holds
                Incident incident = incident(filler(1000));
                store.record(incident);
                written.add(incident);
                assertThat(totalBytes(tmp)).isLessThanOrEqualTo(SMALL.maxBytes());
            }
            assertThat(store.find(written.get(0).ref())).isEmpty();
            assertThat(store.find(written.get(119).ref())).contains(written.get(119));
            assertThat(store.find(written.get(90).ref())).contains(written.get(90));
        }
    }

    @Test
    void aStoreOpenedOverItsSizeIsCutToItAtStart() throws Exception {
        try (FileIncidentStore store = FileIncidentStore.open(tmp, 4096, false, new Retention(1024 * 1024, Duration.ofDays(14)), clock)) {
            for (int i = 0; i < 120; i++) {
                store.record(incident(filler(1000)));
            }
        }
        assertThat(totalBytes(tmp)).isGreaterThan(SMALL.maxBytes());
        try (FileIncidentStore store = FileIncidentStore.open(tmp, 4096, false, SMALL, clock)) {
            assertThat(totalBytes(tmp)).isLessThanOrEqualTo(SMALL.maxBytes());
        }
    }

    @Test
    void incidentsOlderThanTheMaxAgeGoAsNewOnesAreWritten() {
        Incident old = incident(filler(1000));
        try (FileIncidentStore store = FileIncidentStore.open(tmp, 4096, false, SMALL, clock)) {
            store.record(old);
            for (int i = 0; i < 5; i++) {
                store.record(incident(filler(1000)));
            }
            clock.advance(Duration.ofDays(15));
            Incident fresh = incident(filler(1000));
            for (int i = 0; i < 5; i++) {
                store.record(incident(filler(1000)));
            }
            store.record(fresh);
            assertThat(store.find(old.ref())).isEmpty();
            assertThat(store.find(fresh.ref())).contains(fresh);
        }
    }

    @Test
    void incidentsOlderThanTheMaxAgeGoAtStart() {
        Incident old = incident("boom");
        try (FileIncidentStore store = FileIncidentStore.open(tmp, 4096, false, SMALL, clock)) {
            store.record(old);
        }
        clock.advance(Duration.ofDays(15));
        try (FileIncidentStore store = FileIncidentStore.open(tmp, 4096, false, SMALL, clock)) {
            assertThat(store.find(old.ref())).isEmpty();
            Incident fresh = incident("bang");
            store.record(fresh);
            assertThat(store.find(fresh.ref())).contains(fresh);
        }
    }

    @Test
    void aReadOnlyDirectoryLosesTheIncidentButNotTheCallAndItsRefIsMarkedUnrecorded() throws Exception {
        Path dir = tmp.resolve("incidents");
        try (ReadOnlyDirectory ro = ReadOnlyDirectory.make(dir)) {
            try (FileIncidentStore store = FileIncidentStore.open(dir, 4096, false, SMALL, clock)) {
                Incident lost = incident("boom");
                assertThatCode(() -> store.record(lost)).doesNotThrowAnyException();
                assertThat(store.recording()).isFalse();
                assertThat(UnrecordedRefs.contains(lost.ref())).isTrue();
                assertThat(store.find(lost.ref())).isEmpty();
                ro.close();
                Incident kept = incident("bang");
                store.record(kept);
                assertThat(store.recording()).isTrue();
                assertThat(UnrecordedRefs.contains(kept.ref())).isFalse();
                assertThat(store.find(kept.ref())).contains(kept);
            }
        }
    }

    @Test
    void aWriteThatFailsHalfWayLeavesNoTornRecordAndTheRefIsMarkedUnrecorded() throws Exception {
        AtomicBoolean full = new AtomicBoolean();
        Incident before = incident("before");
        Incident lost = incident(filler(2000));
        Incident after = incident("after");
        try (FileIncidentStore store = FileIncidentStore.open(tmp, 1024 * 1024, false, SMALL, clock,
                channel -> new FailingChannel(channel, full))) {
            store.record(before);
            full.set(true);
            store.record(lost);
            assertThat(store.recording()).isFalse();
            assertThat(UnrecordedRefs.contains(lost.ref())).isTrue();
            full.set(false);
            store.record(after);
            assertThat(store.recording()).isTrue();
            assertThat(store.find(before.ref())).contains(before);
            assertThat(store.find(after.ref())).contains(after);
        }
        try (FileIncidentStore reader = FileIncidentStore.openReadOnly(tmp)) {
            assertThat(reader.find(after.ref())).contains(after);
            assertThat(reader.find(lost.ref())).isEmpty();
        }
        for (String line : Files.readAllLines(tmp.resolve("incidents-000001.jsonl"), StandardCharsets.UTF_8)) {
            assertThatCode(() -> IncidentJson.fromJson(Json.mapper().readTree(line))).doesNotThrowAnyException();
        }
    }

    @Test
    void aFullDiskIsLoggedOncePerPeriodWithoutAStackTrace() {
        AtomicBoolean full = new AtomicBoolean(true);
        try (FileIncidentStore store = FileIncidentStore.open(tmp, 1024 * 1024, false, SMALL, clock,
                channel -> new FailingChannel(channel, full))) {
            for (int i = 0; i < 100; i++) {
                store.record(incident("boom"));
            }
            clock.advance(FailureNotice.DEFAULT_PERIOD);
            store.record(incident("boom"));
        }
        List<LogRecord> failures = logged.stream().filter(r -> r.getLevel().intValue() >= java.util.logging.Level.SEVERE.intValue()).toList();
        assertThat(failures).hasSize(2);
        assertThat(failures).allSatisfy(r -> assertThat(r.getThrown()).isNull());
    }

    @Test
    void aSecretTheSanitizerFoundIsNotKeptAtRestAndTheOtherFindingsStillPointAtTheirText() {
        String original = "connect to postgres://app:s3cr3t-Pa55@db.internal:5432/orders failed";
        int pw = original.indexOf("s3cr3t-Pa55");
        int host = original.indexOf("db.internal");
        Incident incident = Incident.ofText(Ref.random(), clock.instant(), ErrorCode.UPSTREAM_ERROR, "tools/call",
                Optional.of("query"), Optional.of("db"), original, List.of(
                        new Finding(Category.SECRET, "url-password", pw, pw + "s3cr3t-Pa55".length()),
                        new Finding(Category.TOPOLOGY, "internal-host", host, host + "db.internal".length())));
        try (FileIncidentStore store = FileIncidentStore.open(tmp, 4096, false, SMALL, clock)) {
            store.record(incident);
            Incident stored = store.find(incident.ref()).orElseThrow();
            assertThat(stored.original().orElseThrow()).doesNotContain("s3cr3t").contains("[redacted:url-password]");
            Finding hostFinding = stored.findings().get(1);
            assertThat(stored.original().orElseThrow().substring(hostFinding.start(), hostFinding.end())).isEqualTo("db.internal");
        }
        assertThat(tmp.toFile().list()).allSatisfy(name -> assertThat(readString(tmp.resolve(name))).doesNotContain("s3cr3t"));
    }

    @Test
    void aPasswordInAnExceptionsUrlIsNotKeptAtRestEvenWhenItReadsLikeAStandIn() {
        // The sanitizer hides "hunter2" from the peer; the log must not be the one place it stays.
        Incident incident = new Incident(Ref.random(), clock.instant(), ErrorCode.INTERNAL_ERROR, "tools/call",
                Optional.of("generate_report"), Incident.chainOf(new java.io.IOException(
                        "Permission denied (uploading to https://svc:hunter2@reports.corp.internal:8443/upload)")));
        try (FileIncidentStore store = FileIncidentStore.open(tmp, 4096, false, SMALL, clock)) {
            store.record(incident);
            String message = store.find(incident.ref()).orElseThrow().chain().get(0).message().orElseThrow();
            assertThat(message).doesNotContain("hunter2").contains("reports.corp.internal:8443/upload");
        }
    }

    @Test
    void aPasswordInAMessageWithControlOrInvisibleCharactersIsNotKeptAtRestEither() {
        for (String tail : List.of("\r\nretry", "\u200B")) {
            Incident incident = new Incident(Ref.random(), clock.instant(), ErrorCode.INTERNAL_ERROR, "tools/call",
                    Optional.of("generate_report"), Incident.chainOf(new java.io.IOException(
                            "uploading to https://svc:hunter2@reports.corp.internal:8443/upload)" + tail)));
            try (FileIncidentStore store = FileIncidentStore.open(tmp, 4096, false, SMALL, clock)) {
                store.record(incident);
                assertThat(store.find(incident.ref()).orElseThrow().chain().get(0).message().orElseThrow())
                        .doesNotContain("hunter2").contains("reports.corp.internal");
            }
        }
    }

    @Test
    void aTypicalUpstreamFailureIsStoredInAtMostItsTextAndAFixedEnvelope() {
        // A Node server's answer to a failed query, with what the sanitizer finds in it.
        String original = "Error: connect ECONNREFUSED 10.20.0.7:5432\n"
                + "    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1607:16)\n"
                + "    at Client._connectionCallback (/srv/app/node_modules/pg/lib/client.js:132:24)\n"
                + "    at /srv/app/dist/db.js:41:17";
        List<Finding> findings = List.of(new Finding(Category.STACK_TRACE, "stack-trace", 0, 194),
                new Finding(Category.TOPOLOGY, "internal-ip", 28, 42), new Finding(Category.FILE_PATH, "path", 148, 193),
                new Finding(Category.FILE_PATH, "path", 202, 227));
        Incident incident = Incident.ofText(Ref.random(), clock.instant(), ErrorCode.UPSTREAM_ERROR, "tools/call",
                Optional.of("query"), Optional.of("db"), original, findings);
        try (FileIncidentStore store = FileIncidentStore.open(tmp, 4096, false, SMALL, clock)) {
            store.record(incident);
            assertThat(store.find(incident.ref())).contains(incident);
        }
        // before: 658 bytes (findings as objects naming every member); now 460
        assertThat(readString(tmp.resolve("incidents-000001.jsonl")).length()).isLessThan(original.length() + 300);
    }

    private static String readString(Path file) {
        try {
            return Files.readString(file, StandardCharsets.ISO_8859_1);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
