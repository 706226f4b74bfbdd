package dev.warden.core.incident;

import dev.warden.core.error.ErrorCode;
import dev.warden.core.error.Ref;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** A writer process for the store's process tests: appends forever and acknowledges each record on stdout. */
public final class StoreWriterMain {

    private StoreWriterMain() {
    }

    /** Starts a writer process on {@code dir} whose records carry {@code bodySize} characters each. */
    static Process start(Path dir, int bodySize) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), StoreWriterMain.class.getName(),
                dir.toString(), String.valueOf(bodySize)).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    }

    /** The first {@code records} refs {@code writer} says it recorded (fewer if it ends first). */
    static List<String> acknowledged(Process writer, int records) {
        List<String> refs = new ArrayList<>();
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(writer.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            while (refs.size() < records && (line = reader.readLine()) != null) {
                refs.add(line.trim());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return refs;
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
