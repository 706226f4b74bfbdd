package dev.warden.core.error;

import dev.warden.core.json.Json;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Objects;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

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

    /** Public so tests and tools can read the same shape that is written. */
    public static ObjectNode toJson(Incident incident) {
        ObjectNode node = Json.object();
        node.put("type", "incident");
        node.put("ref", incident.ref().value());
        node.put("time", incident.time().toString());
        node.put("code", incident.code().name());
        node.put("method", incident.method());
        incident.tool().ifPresent(t -> node.put("tool", t));
        ArrayNode chain = node.putArray("exception");
        for (Incident.ThrowableRecord record : incident.chain()) {
            ObjectNode entry = chain.addObject();
            entry.put("type", record.type());
            record.message().ifPresent(m -> entry.put("message", m));
            ArrayNode stack = entry.putArray("stack");
            record.stack().forEach(stack::add);
        }
        return node;
    }

    @Override
    public void record(Incident incident) {
        byte[] line = (toJson(incident).toString() + "\n").getBytes(StandardCharsets.UTF_8);
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
