package dev.warden.core.error;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Objects;

/**
 * Writes each incident as one JSON line to stderr or to a file (append, flushed per record), so a
 * crash loses at most the record being written. Never stdout: that is the protocol stream.
 */
public final class JsonLinesIncidentSink implements IncidentSink {

    private final OutputStream out;

    private JsonLinesIncidentSink(OutputStream out) {
        this.out = out;
    }

    /** The stderr captured when this is called, so later redirection of System.err does not matter. */
    public static JsonLinesIncidentSink stderr() {
        return new JsonLinesIncidentSink(new PrintStream(System.err, true, StandardCharsets.UTF_8));
    }

    public static JsonLinesIncidentSink file(Path path) {
        Objects.requireNonNull(path, "path");
        try {
            Path parent = path.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            return new JsonLinesIncidentSink(Files.newOutputStream(path, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND, StandardOpenOption.WRITE));
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot open incident log " + path + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void record(Incident incident) {
        byte[] line = (dev.warden.core.incident.IncidentJson.toJson(incident).toString() + "\n").getBytes(StandardCharsets.UTF_8);
        synchronized (this) {
            try {
                out.write(line);
                out.flush();
            } catch (IOException e) {
                // Nowhere left to report to; the failure itself still reaches the peer with its ref.
            }
        }
    }
}
