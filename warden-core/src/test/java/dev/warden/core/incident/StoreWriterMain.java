package dev.warden.core.incident;

import dev.warden.core.error.ErrorCode;
import dev.warden.core.error.Ref;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** A writer process for the crash test: appends forever and acknowledges each record on stdout. */
public final class StoreWriterMain {

    private StoreWriterMain() {
    }

    public static void main(String[] args) {
        FileIncidentStore store = FileIncidentStore.open(Path.of(args[0]), 64 * 1024, false);
        String body = "x".repeat(Integer.parseInt(args[1]));
        for (long i = 0; ; i++) {
            Ref ref = Ref.random();
            store.record(Incident.ofText(ref, Instant.now(), ErrorCode.INTERNAL_ERROR, "tools/call",
                    Optional.of("t"), Optional.empty(), i + " " + body, List.of()));
            System.out.println(ref.value());
            System.out.flush();
        }
    }
}
