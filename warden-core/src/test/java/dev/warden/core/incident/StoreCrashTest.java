package dev.warden.core.incident;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.error.Ref;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Kills a writer process with SIGKILL in the middle of writing and checks what survived. */
class StoreCrashTest {

    @TempDir
    Path dir;

    @Test
    void killingTheWriterLosesAtMostTheRecordBeingWritten() throws Exception {
        for (int round = 0; round < 3; round++) {
            List<String> acknowledged = killWriterAfter(200 + round * 150, 20_000 + round * 30_000);
            try (FileIncidentStore store = FileIncidentStore.open(dir, 64 * 1024, false)) {
                for (String ref : acknowledged) {
                    assertThat(store.find(new Ref(ref))).as("acknowledged %s", ref).isPresent();
                }
                int total = store.list(Instant.EPOCH, Optional.empty(), Integer.MAX_VALUE).size();
                // Everything acknowledged is there; at most the in-flight record (and its unread ack) more.
                assertThat(total).isGreaterThanOrEqualTo(acknowledged.size());
            }
            try (var files = Files.list(dir)) {
                for (Path segment : files.filter(p -> p.toString().endsWith(".jsonl")).toList()) {
                    String content = Files.readString(segment);
                    assertThat(content.isEmpty() || content.endsWith("\n")).as("no partial line in %s", segment).isTrue();
                }
            }
        }
    }

    private List<String> killWriterAfter(int records, int bodySize) throws Exception {
        Process process = StoreWriterMain.start(dir, bodySize);
        List<String> acknowledged = StoreWriterMain.acknowledged(process, records);
        process.destroyForcibly(); // SIGKILL: no shutdown hooks, no flushing
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return acknowledged;
    }
}
