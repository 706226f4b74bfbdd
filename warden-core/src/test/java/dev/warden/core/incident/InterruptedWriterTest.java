package dev.warden.core.incident;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.error.ErrorCode;
import dev.warden.core.error.UnrecordedRefs;
import dev.warden.core.segment.Retention;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Callers are interrupted routinely (Reactor cancels the subscription a tool ran on, a client
 * cancels its request), and a FileChannel closes itself when its thread is interrupted. The
 * failure being answered must still be recorded, and the caller must keep its interrupt.
 */
class InterruptedWriterTest {

    @TempDir
    Path dir;

    @Test
    void anIncidentRecordedByAnInterruptedThreadIsKeptAndTheInterruptIsGivenBack() {
        try (FileIncidentStore store = FileIncidentStore.open(dir)) {
            Incident incident = FileIncidentStoreTest.incident(Instant.now(), ErrorCode.INTERNAL_ERROR, "boom");
            Thread.currentThread().interrupt();
            store.record(incident);
            assertThat(Thread.interrupted()).as("the caller's interrupt").isTrue();
            assertThat(UnrecordedRefs.contains(incident.ref())).isFalse();
            assertThat(store.recording()).isTrue();
            assertThat(store.find(incident.ref())).contains(incident);
        }
    }

    @Test
    void anInterruptArrivingDuringTheWriteDoesNotLoseTheIncident() {
        AtomicBoolean interruptNextWrite = new AtomicBoolean();
        try (FileIncidentStore store = FileIncidentStore.open(dir, FileIncidentStore.DEFAULT_SEGMENT_BYTES, false,
                Retention.DEFAULT, Clock.systemUTC(), c -> new InterruptingChannel(c, interruptNextWrite))) {
            Incident first = FileIncidentStoreTest.incident(Instant.now(), ErrorCode.TIMEOUT, "first");
            store.record(first);
            interruptNextWrite.set(true);
            Incident second = FileIncidentStoreTest.incident(Instant.now(), ErrorCode.INTERNAL_ERROR, "second");
            store.record(second);
            assertThat(Thread.interrupted()).as("the caller's interrupt").isTrue();
            assertThat(UnrecordedRefs.contains(second.ref())).isFalse();
            assertThat(store.find(second.ref())).contains(second);
            assertThat(store.find(first.ref())).as("the segment reopened whole").contains(first);
        }
        try (FileIncidentStore reader = FileIncidentStore.openReadOnly(dir)) {
            assertThat(reader.list(Instant.EPOCH, java.util.Optional.empty(), 10)).hasSize(2);
        }
    }

    /** Interrupts its thread as a write begins, once: the real channel then closes itself mid-record. */
    private static final class InterruptingChannel extends DelegatingChannel {
        private final AtomicBoolean once;

        InterruptingChannel(FileChannel inner, AtomicBoolean once) {
            super(inner);
            this.once = once;
        }

        @Override
        public int write(ByteBuffer src) throws IOException {
            if (once.compareAndSet(true, false)) {
                Thread.currentThread().interrupt();
            }
            return super.write(src);
        }
    }
}
