package dev.warden.gateway.auditlog;

import dev.warden.core.json.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;
import tools.jackson.databind.JsonNode;

/**
 * The embedded audit log read back: its files newest first, each from its end, so the latest
 * records cost one block to read however large the log is. Reads only (creates, deletes and locks
 * nothing): the gateway may be writing meanwhile, and a line it has not finished, or one that is
 * not a record, is passed over.
 */
final class AuditFileReader implements AuditLogReader {

    /** Bytes read at a time from a file's end. */
    private static final int BLOCK = 64 * 1024;
    /** A longer line is no record this log wrote (a record is a few hundred bytes): passed over. */
    static final int MAX_LINE = 1024 * 1024;

    private final Path dir;

    AuditFileReader(Path dir) {
        this.dir = Objects.requireNonNull(dir, "dir");
    }

    @Override
    public List<AuditRecord> list(AuditQuery query) {
        List<AuditRecord> out = new ArrayList<>();
        LocalDate first = LocalDate.ofInstant(query.since(), ZoneOffset.UTC);
        try {
            for (FileAuditLog.Part part : parts()) {
                if (part.day().isBefore(first)) {
                    break; // newest first: every later file is older still
                }
                if (query.until().filter(u -> part.day().isAfter(LocalDate.ofInstant(u, ZoneOffset.UTC))).isPresent()) {
                    continue;
                }
                if (!fromTheEnd(dir.resolve(part.fileName()), query, out)) {
                    break;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("the audit log in " + dir + " cannot be read: " + e, e);
        }
        return out;
    }

    /** The log's files, newest first; none when the directory is not there (nothing was written yet). */
    private List<FileAuditLog.Part> parts() throws IOException {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(f -> FileAuditLog.Part.of(f.getFileName().toString())).flatMap(Optional::stream)
                    .sorted(Comparator.reverseOrder()).toList();
        }
    }

    /** Adds the file's matching records, last line first; false once the query's limit is reached. */
    private static boolean fromTheEnd(Path file, AuditQuery query, List<AuditRecord> out) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            long pos = channel.size();
            byte[] carry = new byte[0]; // the end of a line whose start is further back
            boolean overlong = false;
            while (pos > 0) {
                int n = (int) Math.min(BLOCK, pos);
                pos -= n;
                ByteBuffer buffer = ByteBuffer.allocate(n);
                while (buffer.hasRemaining() && channel.read(buffer, pos + buffer.position()) >= 0) {
                    // read the whole block
                }
                byte[] block = buffer.array();
                int end = n;
                for (int i = n - 1; i >= 0; i--) {
                    if (block[i] == '\n') {
                        if (!overlong && !take(join(block, i + 1, end, carry), query, out)) {
                            return false;
                        }
                        carry = new byte[0];
                        overlong = false;
                        end = i;
                    }
                }
                if (!overlong && carry.length + end > MAX_LINE) {
                    overlong = true;
                    carry = new byte[0];
                } else if (!overlong) {
                    carry = join(block, 0, end, carry);
                }
            }
            return overlong || take(carry, query, out);
        } catch (NoSuchFileException e) {
            return true; // removed by the retention since it was listed
        }
    }

    private static byte[] join(byte[] block, int from, int to, byte[] tail) {
        byte[] line = new byte[to - from + tail.length];
        System.arraycopy(block, from, line, 0, to - from);
        System.arraycopy(tail, 0, line, to - from, tail.length);
        return line;
    }

    /** Adds the line's record when it is one the query asks for; false once the limit is reached. */
    private static boolean take(byte[] line, AuditQuery query, List<AuditRecord> out) {
        if (line.length == 0) {
            return true;
        }
        Optional<AuditRecord> r = parse(new String(line, StandardCharsets.UTF_8));
        if (r.isPresent() && query.matches(r.get())) {
            out.add(r.get());
        }
        return out.size() < query.limit();
    }

    /** One line as {@link FileAuditLog#line} wrote it; empty for anything else. */
    static Optional<AuditRecord> parse(String line) {
        try {
            JsonNode n = Json.mapper().readTree(line);
            if (!n.isObject()) {
                return Optional.empty();
            }
            return Optional.of(new AuditRecord(Instant.parse(n.get("time").stringValue()), n.get("client").stringValue(),
                    text(n, "upstream"), n.get("method").stringValue(), text(n, "tool"),
                    Duration.ofNanos(Math.round(n.get("durationMs").doubleValue() * 1_000_000)),
                    AuditRecord.Outcome.valueOf(n.get("outcome").stringValue()), text(n, "code"), text(n, "ref"),
                    text(n, "subject"), text(n, "clientId"), text(n, "issuer"), text(n, "kind")));
        } catch (RuntimeException e) {
            return Optional.empty(); // a torn or foreign line: not a record
        }
    }

    private static Optional<String> text(JsonNode n, String name) {
        JsonNode v = n.get(name);
        return v != null && v.isString() ? Optional.of(v.stringValue()) : Optional.empty();
    }
}
