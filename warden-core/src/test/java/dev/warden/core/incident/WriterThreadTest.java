package dev.warden.core.incident;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The background store's one writer thread: passes run on it, and none after it is closed. */
class WriterThreadTest {

    @Test
    void aPassHandedOverRunsOnTheWriterThread() throws Exception {
        try (WriterThread writer = new WriterThread("test-incident-writer")) {
            CompletableFuture<String> ranOn = new CompletableFuture<>();
            writer.execute(() -> ranOn.complete(Thread.currentThread().getName()));
            assertThat(ranOn.get(30, TimeUnit.SECONDS)).isEqualTo("test-incident-writer");
        }
    }

    @Test
    void aClosedWriterRefusesAPassSoTheStoreWritesItOnTheCaller() {
        WriterThread writer = new WriterThread("test-incident-writer");
        writer.close();
        assertThatThrownBy(() -> writer.execute(() -> { })).isInstanceOf(RejectedExecutionException.class);
    }
}
