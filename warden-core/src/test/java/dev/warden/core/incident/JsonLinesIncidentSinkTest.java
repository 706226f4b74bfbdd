package dev.warden.core.incident;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.error.ErrorCode;
import dev.warden.core.error.Ref;
import dev.warden.core.json.Json;
import dev.warden.core.sanitize.detection.Category;
import dev.warden.core.sanitize.detection.Finding;
import dev.warden.core.segment.Retention;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

class JsonLinesIncidentSinkTest {

    private static final Instant T0 = Instant.parse("2026-11-01T00:00:00Z");
    private static final String ORIGINAL = "connect to postgres://app:hX7tq2Lw9Rz@db.internal:5432/orders failed";

    @TempDir
    Path tmp;

    private static Incident incident() {
        return Incident.ofText(Ref.random(), T0, ErrorCode.UPSTREAM_ERROR, "tools/call", Optional.of("query"),
                Optional.of("db"), ORIGINAL, List.of(new Finding(Category.TOPOLOGY, "internal-host", 38, 49)))
                .withArguments("{\"sql\":\"SELECT 1\"}").withReason("the upstream failed");
    }

    @Test
    void aSummaryLineCarriesTheRefAndWardensOwnWordsButNothingAnUpstreamOrCallerWrote() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Incident incident = incident();
        JsonLinesIncidentSink.to(out, JsonLinesIncidentSink.Detail.SUMMARY).record(incident);
        JsonNode line = Json.mapper().readTree(out.toString(StandardCharsets.UTF_8));
        assertThat(line.path("ref").asString()).isEqualTo(incident.ref().value());
        assertThat(line.path("code").asString()).isEqualTo("UPSTREAM_ERROR");
        assertThat(line.path("reason").asString()).isEqualTo("the upstream failed");
        assertThat(line.has("original")).isFalse();
        assertThat(line.has("arguments")).isFalse();
        assertThat(line.has("findings")).isFalse();
    }

    @Test
    void aFullLineKeepsTheOriginalWithItsCredentialsReplaced() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        JsonLinesIncidentSink.to(out, JsonLinesIncidentSink.Detail.FULL).record(incident());
        String text = out.toString(StandardCharsets.UTF_8);
        assertThat(text).contains("db.internal").contains("[redacted:").doesNotContain("hX7tq2Lw9Rz");
    }

    @Test
    void eachLineIsTheMappersTextOfItsRecordCharacterForCharacter() {
        Incident incident = incident().withReason("quote \" control \u0001 \u00e9 \ud83d\ude00");
        ByteArrayOutputStream summary = new ByteArrayOutputStream();
        JsonLinesIncidentSink.to(summary, JsonLinesIncidentSink.Detail.SUMMARY).record(incident);
        ByteArrayOutputStream full = new ByteArrayOutputStream();
        JsonLinesIncidentSink.to(full, JsonLinesIncidentSink.Detail.FULL).record(incident);
        assertThat(summary.toString(StandardCharsets.UTF_8)).isEqualTo(IncidentJson.summary(incident) + "\n");
        assertThat(full.toString(StandardCharsets.UTF_8))
                .isEqualTo(IncidentJson.toJson(AtRest.redacted(incident)) + "\n");
    }

    @Test
    void aLogFileIsCreatedOwnerOnly() throws Exception {
        Path log = tmp.resolve("logs").resolve("incidents.jsonl");
        JsonLinesIncidentSink.file(log).record(incident());
        assertThat(Files.getPosixFilePermissions(log)).isEqualTo(PosixFilePermissions.fromString("rw-------"));
        assertThat(Files.getPosixFilePermissions(log.getParent())).isEqualTo(PosixFilePermissions.fromString("rwx------"));
    }

    @Test
    void aLogFileRollsOverAtHalfItsRetainedSizeSoBothPartsStayWithinIt() throws Exception {
        Path log = tmp.resolve("incidents.jsonl");
        Retention retention = new Retention(Retention.MIN_BYTES, Duration.ofDays(14));
        JsonLinesIncidentSink sink = JsonLinesIncidentSink.file(log, JsonLinesIncidentSink.Detail.FULL, retention,
                Clock.fixed(T0, ZoneOffset.UTC));
        for (int i = 0; i < 300; i++) { // about 100 KiB: past the 64 KiB retained
            sink.record(incident());
            long total = Files.size(log) + (Files.exists(tmp.resolve("incidents.jsonl.1")) ? Files.size(tmp.resolve("incidents.jsonl.1")) : 0);
            assertThat(total).isLessThanOrEqualTo(retention.maxBytes());
        }
        assertThat(tmp.resolve("incidents.jsonl.1")).exists();
    }

    @Test
    void aLogFileOlderThanTheMaxAgeIsStartedAfreshAtOpen() throws Exception {
        Path log = tmp.resolve("incidents.jsonl");
        Files.writeString(log, "{\"old\":true}\n");
        Files.setLastModifiedTime(log, FileTime.from(T0.minus(Duration.ofDays(20))));
        JsonLinesIncidentSink.file(log, JsonLinesIncidentSink.Detail.FULL, Retention.DEFAULT,
                Clock.fixed(T0, ZoneOffset.UTC)).record(incident());
        assertThat(Files.readString(log)).doesNotContain("\"old\"");
    }
}
