package dev.warden.core.incident;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.error.ErrorCode;
import dev.warden.core.error.Ref;
import dev.warden.core.json.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Several stores writing one directory, as processes sharing the default data directory do (a
 * gateway and the {@code warden demo} it runs, {@code warden wrap} beside them): each writes a
 * lane of its own, and every reader finds every record.
 */
class SharedDirectoryTest {

    @TempDir
    Path dir;

    @Test
    void twoWriterProcessesOnOneDirectoryLoseNoRecord() throws Exception {
        Process first = writer();
        Process second = writer();
        CompletableFuture<List<String>> fromFirst = CompletableFuture.supplyAsync(() -> StoreWriterMain.acknowledged(first, 300));
        CompletableFuture<List<String>> fromSecond = CompletableFuture.supplyAsync(() -> StoreWriterMain.acknowledged(second, 300));
        List<String> refs = new ArrayList<>(fromFirst.get(120, TimeUnit.SECONDS));
        refs.addAll(fromSecond.get(120, TimeUnit.SECONDS));
        for (Process process : List.of(first, second)) {
            process.destroyForcibly();
            assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        }

        FileIncidentStore reader = FileIncidentStore.openReadOnly(dir);
        for (String ref : refs) {
            assertThat(reader.find(new Ref(ref))).as("acknowledged %s", ref).isPresent();
        }
        assertThat(reader.list(Instant.EPOCH, Optional.empty(), Integer.MAX_VALUE).size())
                .isGreaterThanOrEqualTo(refs.size());
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path segment : files.filter(p -> p.toString().endsWith(".jsonl")).toList()) {
                String content = Files.readString(segment, StandardCharsets.UTF_8);
                // A killed writer may leave one partial last line, which no reader takes for a record.
                for (String line : content.substring(0, content.lastIndexOf('\n') + 1).lines().toList()) {
                    assertThat(Json.mapper().readTree(line).path("ref").asString()).as("a whole record in %s", segment)
                            .startsWith("ref_");
                }
            }
        }
    }

    @Test
    void aStoreFindsWhatAnotherStoreOfTheDirectoryWroteAndListsIt() {
        try (FileIncidentStore one = FileIncidentStore.open(dir); FileIncidentStore other = FileIncidentStore.open(dir)) {
            Ref mine = Ref.random();
            Ref theirs = Ref.random();
            one.record(incident(mine));
            other.record(incident(theirs));

            assertThat(one.find(theirs)).isPresent();
            assertThat(other.find(mine)).isPresent();
            assertThat(one.list(Instant.EPOCH, Optional.empty(), 10)).extracting(Incident::ref)
                    .containsExactlyInAnyOrder(mine, theirs);
            assertThat(FileIncidentStore.openReadOnly(dir).find(theirs)).isPresent();
        }
    }

    @Test
    void aClosedStoresLaneGoesToTheNextWriter() {
        Ref before = Ref.random();
        try (FileIncidentStore first = FileIncidentStore.open(dir)) {
            first.record(incident(before));
        }
        try (FileIncidentStore next = FileIncidentStore.open(dir)) {
            next.record(incident(Ref.random()));
            assertThat(next.find(before)).isPresent();
        }
        assertThat(dir.resolve("lane-2")).doesNotExist();
    }

    @Test
    void aStoreThatCouldNotWriteAtStartTakesALaneOnceItCan() throws Exception {
        Path blocked = dir.resolve("blocked");
        Files.writeString(blocked, "a file where the data directory should be");
        Path root = blocked.resolve("incidents");
        try (FileIncidentStore late = FileIncidentStore.open(root)) {
            assertThat(late.recording()).isFalse();
            Files.delete(blocked);
            Ref first = Ref.random();
            late.record(incident(first));
            try (FileIncidentStore other = FileIncidentStore.open(root)) {
                Ref second = Ref.random();
                other.record(incident(second));

                assertThat(root.resolve("lane-2")).as("the late store holds the first lane").isDirectory();
                assertThat(late.find(second)).isPresent();
                assertThat(other.find(first)).isPresent();
            }
        }
    }

    private static Incident incident(Ref ref) {
        return Incident.ofText(ref, Instant.now(), ErrorCode.INTERNAL_ERROR, "tools/call", Optional.of("t"),
                Optional.empty(), "boom", List.of());
    }

    private Process writer() throws Exception {
        return StoreWriterMain.start(dir, 2000);
    }
}
