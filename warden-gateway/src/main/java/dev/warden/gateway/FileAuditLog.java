package dev.warden.gateway;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.concurrent.locks.ReentrantLock;

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
        byte[] bytes = line(r).getBytes(StandardCharsets.UTF_8);
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

    /**
     * The record as one JSON line, written out here (it is written for every request, and a JSON
     * tree serialized by the mapper cost several times more): the same members in the same order,
     * escaped as the mapper escapes them.
     */
    static String line(AuditRecord r) {
        StringBuilder b = new StringBuilder(192);
        b.append("{\"time\":");
        string(b, r.time().toString());
        b.append(",\"client\":");
        string(b, r.client());
        if (r.upstream().isPresent()) {
            b.append(",\"upstream\":");
            string(b, r.upstream().get());
        }
        b.append(",\"method\":");
        string(b, r.method());
        if (r.tool().isPresent()) {
            b.append(",\"tool\":");
            string(b, r.tool().get());
        }
        b.append(",\"durationMs\":").append(r.duration().toNanos() / 1_000_000.0);
        b.append(",\"outcome\":");
        string(b, r.outcome().name());
        if (r.code().isPresent()) {
            b.append(",\"code\":");
            string(b, r.code().get());
        }
        if (r.ref().isPresent()) {
            b.append(",\"ref\":");
            string(b, r.ref().get());
        }
        return b.append("}\n").toString();
    }

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    /** A JSON string: quotes, backslashes and control characters escaped, the rest as it is. */
    private static void string(StringBuilder b, String s) {
        b.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                case '\b' -> b.append("\\b");
                case '\f' -> b.append("\\f");
                default -> {
                    if (c < 0x20) {
                        b.append("\\u00").append(HEX[c >> 4]).append(HEX[c & 0xF]);
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        b.append('"');
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
