package dev.warden.gateway;

import dev.warden.core.json.Json;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.concurrent.locks.ReentrantLock;
import tools.jackson.databind.node.ObjectNode;

/**
 * The embedded audit store: one JSON line per request in {@code DIR/audit-YYYY-MM-DD.jsonl}
 * (UTC days), appended and flushed per record so a crash loses at most the line being written.
 */
public final class FileAuditLog implements AuditSink, AutoCloseable {

    private final Path dir;
    private final ReentrantLock lock = new ReentrantLock();
    private LocalDate day;
    private OutputStream out;

    private FileAuditLog(Path dir) {
        this.dir = dir;
    }

    public static FileAuditLog open(Path dir) throws IOException {
        Files.createDirectories(dir);
        return new FileAuditLog(dir);
    }

    @Override
    public void record(AuditRecord r) throws IOException {
        ObjectNode line = Json.object();
        line.put("time", r.time().toString());
        line.put("client", r.client());
        r.upstream().ifPresent(u -> line.put("upstream", u));
        line.put("method", r.method());
        r.tool().ifPresent(t -> line.put("tool", t));
        line.put("durationMs", r.duration().toNanos() / 1_000_000.0);
        line.put("outcome", r.outcome().name());
        r.code().ifPresent(c -> line.put("code", c));
        r.ref().ifPresent(ref -> line.put("ref", ref));
        byte[] bytes = (line + "\n").getBytes(StandardCharsets.UTF_8);
        lock.lock();
        try {
            LocalDate today = LocalDate.ofInstant(r.time(), ZoneOffset.UTC);
            if (!today.equals(day)) {
                if (out != null) {
                    out.close();
                }
                out = Files.newOutputStream(dir.resolve("audit-" + today + ".jsonl"), StandardOpenOption.CREATE,
                        StandardOpenOption.APPEND);
                day = today;
            }
            out.write(bytes);
            out.flush();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void close() throws IOException {
        lock.lock();
        try {
            if (out != null) {
                out.close();
                out = null;
            }
        } finally {
            lock.unlock();
        }
    }
}
