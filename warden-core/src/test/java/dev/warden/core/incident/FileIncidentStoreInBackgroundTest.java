package dev.warden.core.incident;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.error.ErrorCode;
import dev.warden.core.error.UnrecordedRefs;
import dev.warden.core.segment.Retention;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store that writes in the background: the answer does not wait for the disk, and what an
 * operator relies on still holds. The writer's passes run when the test says ({@link Passes}).
 */
class FileIncidentStoreInBackgroundTest {

    @TempDir
    Path dir;

    private final Passes passes = new Passes();

    private FileIncidentStore open(UnaryOperator<FileChannel> channels) {
        return FileIncidentStore.open(dir, FileIncidentStore.DEFAULT_SEGMENT_BYTES, false, Retention.DEFAULT,
                Clock.systemUTC(), channels, FileIncidentStore.Writes.IN_BACKGROUND, passes);
    }

    private static Incident incident(String original) {
        return FileIncidentStoreTest.incident(Instant.now(), ErrorCode.INTERNAL_ERROR, original);
    }

    private Optional<Incident> readFromAnotherProcess(Incident incident) {
        try (FileIncidentStore reader = FileIncidentStore.openReadOnly(dir)) {
            return reader.find(incident.ref());
        }
    }

    @Test
    void recordReturnsBeforeTheIncidentIsOnDiskAndThePassWritesIt() {
        Incident incident = incident("boom");
        try (FileIncidentStore store = open(UnaryOperator.identity())) {
            store.record(incident);
            assertThat(readFromAnotherProcess(incident)).isEmpty();
            passes.runAll();
            assertThat(readFromAnotherProcess(incident)).contains(incident);
        }
    }

    @Test
    void aQueuedIncidentIsFoundInTheRecordingProcessBeforeThePassRuns() {
        Incident incident = incident("boom");
        try (FileIncidentStore store = open(UnaryOperator.identity())) {
            store.record(incident);
            assertThat(store.find(incident.ref())).contains(incident);
        }
    }

    @Test
    void incidentsQueuedTogetherGoToDiskInOneWrite() {
        AtomicInteger writes = new AtomicInteger();
        List<Incident> burst = List.of(incident("one"), incident("two"), incident("three"), incident("four"));
        try (FileIncidentStore store = open(c -> new CountingChannel(c, writes))) {
            burst.forEach(store::record);
            assertThat(passes.size()).as("one pass scheduled for the burst").isEqualTo(1);
            passes.runAll();
            assertThat(writes.get()).isEqualTo(1);
        }
        burst.forEach(i -> assertThat(readFromAnotherProcess(i)).contains(i));
    }

    @Test
    void incidentsQueuedTogetherAreStoredInTheOrderRecorded() throws IOException {
        List<Incident> burst = List.of(incident("one"), incident("two"), incident("three"));
        try (FileIncidentStore store = open(UnaryOperator.identity())) {
            burst.forEach(store::record);
            passes.runAll();
        }
        String segment = Files.readString(dir.resolve("incidents-000001.jsonl"));
        assertThat(segment.indexOf(burst.get(0).ref().value())).isLessThan(segment.indexOf(burst.get(1).ref().value()));
        assertThat(segment.indexOf(burst.get(1).ref().value())).isLessThan(segment.indexOf(burst.get(2).ref().value()));
    }

    @Test
    void aBacklogPastTheBoundIsWrittenByTheCallerNotHeldInMemory() {
        Incident first = incident("first");
        try (FileIncidentStore store = open(UnaryOperator.identity())) {
            store.record(first);
            for (int i = 1; i < FileIncidentStore.MAX_QUEUED; i++) {
                store.record(incident("queued " + i));
            }
            assertThat(readFromAnotherProcess(first)).as("still queued at the bound").isEmpty();
            store.record(incident("one too many"));
            assertThat(readFromAnotherProcess(first)).contains(first);
        }
    }

    @Test
    void closingWritesWhatIsStillQueued() {
        Incident incident = incident("boom");
        try (FileIncidentStore store = open(UnaryOperator.identity())) {
            store.record(incident);
        }
        assertThat(readFromAnotherProcess(incident)).contains(incident);
    }

    @Test
    void aFailedBackgroundWriteMarksItsRefUnrecordedAndTheNextRecordWaitsForTheDisk() {
        AtomicBoolean full = new AtomicBoolean(true);
        Incident lost = incident("lost");
        Incident kept = incident("kept");
        try (FileIncidentStore store = open(c -> new FailingChannel(c, full))) {
            store.record(lost);
            passes.runAll();
            assertThat(UnrecordedRefs.contains(lost.ref())).isTrue();
            assertThat(store.recording()).isFalse();
            full.set(false);
            store.record(kept);
            assertThat(passes.size()).as("written by the caller, not queued").isZero();
            assertThat(readFromAnotherProcess(kept)).contains(kept);
            assertThat(UnrecordedRefs.contains(kept.ref())).isFalse();
            assertThat(store.recording()).isTrue();
        }
    }

    /** The writer's passes, run when the test says. */
    private static final class Passes implements Executor {
        private final ArrayDeque<Runnable> queued = new ArrayDeque<>();

        @Override
        public void execute(Runnable pass) {
            queued.add(pass);
        }

        int size() {
            return queued.size();
        }

        void runAll() {
            for (Runnable pass = queued.poll(); pass != null; pass = queued.poll()) {
                pass.run();
            }
        }
    }

    /** Counts the writes that reach the file. */
    private static final class CountingChannel extends DelegatingChannel {
        private final AtomicInteger writes;

        CountingChannel(FileChannel inner, AtomicInteger writes) {
            super(inner);
            this.writes = writes;
        }

        @Override
        public int write(ByteBuffer src) throws IOException {
            writes.incrementAndGet();
            return super.write(src);
        }
    }
}
