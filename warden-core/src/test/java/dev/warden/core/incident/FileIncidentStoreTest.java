package dev.warden.core.incident;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.error.ErrorCode;
import dev.warden.core.error.Ref;
import dev.warden.core.sanitize.detection.Category;
import dev.warden.core.sanitize.detection.Finding;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileIncidentStoreTest {

    @TempDir
    Path dir;

    static Incident incident(Instant time, ErrorCode code, String original) {
        return Incident.ofText(Ref.random(), time, code, "tools/call", Optional.of("search"), Optional.of("github"),
                original, List.of(new Finding(Category.FILE_PATH, "path", 0, 4)));
    }

    @Test
    void aRecordedIncidentIsFoundByItsRefWithItsOriginal() {
        Incident incident = incident(Instant.parse("2026-11-22T07:00:00Z"), ErrorCode.UPSTREAM_ERROR,
                "token ghp_secret rejected\nsecond line");
        try (FileIncidentStore store = FileIncidentStore.open(dir)) {
            store.record(incident);
            assertThat(store.find(incident.ref())).contains(incident);
        }
    }

    @Test
    void aStoredLineIsTheMappersTextOfTheRecordCharacterForCharacter() throws Exception {
        // Every member the record can have, with text that needs escaping: quotes, controls, non-ASCII.
        Incident incident = new Incident(Ref.random(), Instant.parse("2026-11-29T20:00:00.123456Z"),
                ErrorCode.UPSTREAM_ERROR, "tools/call", Optional.of("se\"arch"), Optional.of("github"),
                Optional.of("line\u0001\ttab \u00e9 \ud83d\ude00 \\ \u2028"),
                List.of(new Finding(Category.FILE_PATH, "path", 0, 4), new Finding(Category.FILE_PATH, "other", 5, 9)),
                List.of(new Incident.ThrowableRecord("java.io.IOException", Optional.of("no \"file\"\n"),
                        List.of("a.B.c(B.java:1)"))),
                Optional.of("{\"q\":1}"), Optional.of("why"), Optional.of("alice"), Optional.of("cli"),
                Optional.of("https://issuer"), Optional.of("jwt"));
        try (FileIncidentStore store = FileIncidentStore.open(dir)) {
            store.record(incident);
        }
        String expected = IncidentJson.stored(AtRest.redacted(incident)).toString() + "\n";
        Segments files = new Segments(dir);
        assertThat(Files.readString(files.segment(files.numbers().get(0)), StandardCharsets.UTF_8)).isEqualTo(expected);
    }

    @Test
    void aFreshReaderSeesWhatTheWriterWrote() {
        Incident incident = incident(Instant.now(), ErrorCode.INTERNAL_ERROR, "boom");
        try (FileIncidentStore writer = FileIncidentStore.open(dir)) {
            writer.record(incident);
            try (FileIncidentStore reader = FileIncidentStore.openReadOnly(dir)) {
                assertThat(reader.find(incident.ref())).contains(incident);
            }
        }
    }

    @Test
    void anUnknownRefIsEmpty() {
        try (FileIncidentStore store = FileIncidentStore.open(dir)) {
            store.record(incident(Instant.now(), ErrorCode.TIMEOUT, "x"));
            assertThat(store.find(Ref.random())).isEmpty();
        }
    }

    @Test
    void segmentsRotateBySizeAndSealedSegmentsAreIndexed() throws Exception {
        List<Incident> written = new ArrayList<>();
        try (FileIncidentStore store = FileIncidentStore.open(dir, 8192, false)) {
            for (int i = 0; i < 200; i++) {
                Incident incident = incident(Instant.now(), ErrorCode.INTERNAL_ERROR, "record " + i + " " + "x".repeat(200));
                store.record(incident);
                written.add(incident);
            }
        }
        try (Stream<Path> files = Files.list(dir)) {
            List<String> names = files.map(p -> p.getFileName().toString()).sorted().toList();
            assertThat(names.stream().filter(n -> n.endsWith(".jsonl")).count()).isGreaterThan(5);
            assertThat(names.stream().filter(n -> n.endsWith(".idx")).count())
                    .isEqualTo(names.stream().filter(n -> n.endsWith(".jsonl")).count() - 1);
        }
        try (FileIncidentStore reader = FileIncidentStore.openReadOnly(dir)) {
            for (Incident incident : written) {
                assertThat(reader.find(incident.ref())).contains(incident);
            }
        }
    }

    @Test
    void listFiltersBySinceAndCodeNewestFirst() {
        Instant now = Instant.now();
        try (FileIncidentStore store = FileIncidentStore.open(dir)) {
            store.record(incident(now.minus(Duration.ofHours(3)), ErrorCode.INTERNAL_ERROR, "old"));
            store.record(incident(now.minus(Duration.ofMinutes(30)), ErrorCode.UPSTREAM_ERROR, "recent upstream"));
            store.record(incident(now.minus(Duration.ofMinutes(10)), ErrorCode.INTERNAL_ERROR, "recent internal"));
            List<Incident> lastHour = store.list(now.minus(Duration.ofHours(1)), Optional.empty(), 100);
            assertThat(lastHour).extracting(i -> i.original().orElseThrow())
                    .containsExactly("recent internal", "recent upstream");
            assertThat(store.list(now.minus(Duration.ofHours(1)), Optional.of(ErrorCode.UPSTREAM_ERROR), 100))
                    .extracting(i -> i.original().orElseThrow()).containsExactly("recent upstream");
        }
    }

    @Test
    void aBoundedPeriodListsItsNewestWithoutCountingLaterIncidentsAgainstTheLimit() {
        Instant now = Instant.now();
        try (FileIncidentStore store = FileIncidentStore.open(dir)) {
            store.record(incident(now.minus(Duration.ofHours(5)), ErrorCode.INTERNAL_ERROR, "before the period"));
            store.record(incident(now.minus(Duration.ofHours(3)), ErrorCode.UPSTREAM_ERROR, "early in the period"));
            store.record(incident(now.minus(Duration.ofHours(2)), ErrorCode.INTERNAL_ERROR, "late in the period"));
            for (int i = 0; i < 5; i++) {
                store.record(incident(now.minus(Duration.ofMinutes(i + 1)), ErrorCode.INTERNAL_ERROR, "after " + i));
            }
            List<Incident> period = store.list(now.minus(Duration.ofHours(4)), Optional.of(now.minus(Duration.ofHours(1))),
                    Optional.empty(), 2);
            assertThat(period).extracting(i -> i.original().orElseThrow())
                    .containsExactly("late in the period", "early in the period");
        }
    }

    @Test
    void aPartialRecordLeftByACrashIsCutOffAndWritingGoesOn() throws Exception {
        Incident before = incident(Instant.now(), ErrorCode.INTERNAL_ERROR, "before the crash");
        try (FileIncidentStore store = FileIncidentStore.open(dir)) {
            store.record(before);
        }
        Path segment = dir.resolve("incidents-000001.jsonl");
        Files.writeString(segment, "{\"type\":\"incident\",\"ref\":\"ref_half", StandardCharsets.UTF_8,
                StandardOpenOption.APPEND);
        Incident after = incident(Instant.now(), ErrorCode.INTERNAL_ERROR, "after the crash");
        try (FileIncidentStore store = FileIncidentStore.open(dir)) {
            store.record(after);
            assertThat(store.find(before.ref())).contains(before);
            assertThat(store.find(after.ref())).contains(after);
        }
        assertThat(Files.readString(segment)).doesNotContain("ref_half").endsWith("\n");
    }

    @Test
    void aMissingIndexOfASealedSegmentIsRebuilt() throws Exception {
        List<Incident> written = new ArrayList<>();
        try (FileIncidentStore store = FileIncidentStore.open(dir, 4096, false)) {
            for (int i = 0; i < 40; i++) {
                Incident incident = incident(Instant.now(), ErrorCode.TIMEOUT, "r" + i + "y".repeat(300));
                store.record(incident);
                written.add(incident);
            }
        }
        Files.delete(dir.resolve("incidents-000001.idx"));
        try (FileIncidentStore store = FileIncidentStore.open(dir, 4096, false)) {
            assertThat(store.find(written.get(0).ref())).contains(written.get(0));
        }
        assertThat(dir.resolve("incidents-000001.idx")).exists();
    }

    @Test
    void eachLinesHeadSaysTheTimeAndCodeItsParsedRecordHas() throws Exception {
        // Instant.toString writes whole seconds, then 3, 6 or 9 digits of fraction; years past 9999
        // with a sign, which the head leaves to the parser.
        List<Instant> times = List.of(Instant.parse("2026-11-30T10:00:00Z"), Instant.parse("2026-11-30T10:00:00.5Z"),
                Instant.parse("2026-02-28T23:59:59.000001Z"), Instant.parse("2024-02-29T00:00:00.123456789Z"),
                Instant.parse("0001-01-01T00:00:00.010Z"), Instant.parse("1969-12-31T23:59:59.999Z"));
        List<Incident> written = new ArrayList<>();
        try (FileIncidentStore store = FileIncidentStore.open(dir)) {
            int i = 0;
            for (ErrorCode code : ErrorCode.values()) {
                Incident incident = incident(times.get(i++ % times.size()), code, "of " + code).withReason("\"why\"");
                store.record(incident);
                written.add(incident);
            }
            Incident farFuture = incident(Instant.parse("+10000-01-01T00:00:00Z"), ErrorCode.TIMEOUT, "far");
            store.record(farFuture);
            written.add(farFuture);
        }
        Segments files = new Segments(dir);
        List<SegmentLine> lines = files.lines(files.numbers().get(0));
        assertThat(lines).hasSize(written.size());
        for (int i = 0; i < written.size() - 1; i++) {
            assertThat(lines.get(i).head()).as(written.get(i).time().toString())
                    .contains(new SegmentLine.Head(written.get(i).time(), written.get(i).code().name()));
        }
        assertThat(lines.getLast().head()).isEmpty();
        assertThat(lines.getLast().incident()).contains(written.getLast());
    }

    @Test
    void aRecordNotStartingAsWardenWritesOneIsStillListedByItsTimeAndCode() throws Exception {
        Instant now = Instant.parse("2026-11-30T10:00:00Z");
        Incident kept = incident(now.minus(Duration.ofMinutes(5)), ErrorCode.TIMEOUT, "fields in another order");
        Incident otherCode = incident(now.minus(Duration.ofMinutes(4)), ErrorCode.INTERNAL_ERROR, "another code");
        Incident later = incident(now.plus(Duration.ofMinutes(1)), ErrorCode.TIMEOUT, "after the period");
        StringBuilder text = new StringBuilder();
        for (Incident incident : List.of(kept, otherCode, later)) {
            tools.jackson.databind.node.ObjectNode stored = IncidentJson.stored(incident);
            tools.jackson.databind.node.ObjectNode reordered = dev.warden.core.json.Json.mapper().createObjectNode();
            List<String> names = new ArrayList<>(stored.propertyNames());
            java.util.Collections.reverse(names);
            names.forEach(name -> reordered.set(name, stored.get(name)));
            text.append(reordered).append('\n');
        }
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("incidents-000001.jsonl"), text);
        try (FileIncidentStore reader = FileIncidentStore.openReadOnly(dir)) {
            assertThat(reader.list(now.minus(Duration.ofHours(1)), Optional.of(now), Optional.of(ErrorCode.TIMEOUT), 10))
                    .containsExactly(kept);
        }
    }

    @Test
    void aReadOnlyStoreOnAMissingDirectoryIsEmpty() {
        try (FileIncidentStore reader = FileIncidentStore.openReadOnly(dir.resolve("nothing-here"))) {
            assertThat(reader.find(Ref.random())).isEmpty();
            assertThat(reader.list(Instant.EPOCH, Optional.empty(), 10)).isEmpty();
        }
    }

    @Test
    void theArgumentsAndTheReasonAreKeptAndReadBack() {
        Incident incident = incident(Instant.parse("2026-11-22T07:00:00Z"), ErrorCode.RATE_LIMITED, "refused")
                .withArguments("{\"q\":\"rust\"}")
                .withReason("breaker open for tool search after 5 failures in 10 calls; until 07:00:30Z");
        try (FileIncidentStore writer = FileIncidentStore.open(dir)) {
            writer.record(incident);
        }
        try (FileIncidentStore reader = FileIncidentStore.openReadOnly(dir)) {
            Incident read = reader.find(incident.ref()).orElseThrow();
            assertThat(read.arguments()).contains("{\"q\":\"rust\"}");
            assertThat(read.reason()).contains("breaker open for tool search after 5 failures in 10 calls; "
                    + "until 07:00:30Z");
            assertThat(reader.list(Instant.EPOCH, Optional.empty(), 10)).containsExactly(incident);
        }
    }

    @Test
    void aRecordWrittenBeforeArgumentsAndReasonExistedStillReads() throws Exception {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("incidents-000001.jsonl"), "{\"type\":\"incident\",\"ref\":"
                + "\"ref_abcdefghijkmnpqr\",\"time\":\"2026-11-01T10:00:00Z\",\"code\":\"UPSTREAM_ERROR\","
                + "\"method\":\"tools/call\",\"tool\":\"search\",\"upstream\":\"github\",\"original\":\"boom\"}\n",
                StandardCharsets.UTF_8);
        try (FileIncidentStore reader = FileIncidentStore.openReadOnly(dir)) {
            Incident read = reader.find(new Ref("ref_abcdefghijkmnpqr")).orElseThrow();
            assertThat(read.original()).contains("boom");
            assertThat(read.arguments()).isEmpty();
            assertThat(read.reason()).isEmpty();
        }
    }
}
