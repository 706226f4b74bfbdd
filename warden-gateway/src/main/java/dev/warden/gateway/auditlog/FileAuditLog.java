package dev.warden.gateway.auditlog;

import dev.warden.core.json.JsonText;
import dev.warden.core.segment.Appends;
import dev.warden.core.segment.OwnerOnly;
import dev.warden.core.segment.Retention;
import dev.warden.core.segment.SegmentLedger;
import java.io.IOException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Stream;

/**
 * The embedded audit store: one JSON line per request in {@code DIR/audit-YYYY-MM-DD.jsonl}
 * (UTC days; a day that outgrows a quarter of the retained size goes on in
 * {@code audit-YYYY-MM-DD.1.jsonl}, {@code .2}, …), appended with one write per record so a crash
 * loses at most the line being written; a write that fails is cut back, so no torn line stays.
 *
 * <p>Kept within a {@link Retention}: whole files go, oldest first, when the log would pass its
 * size or a file's day is older than its maximum age (by the injected clock), checked at open and
 * on each write against sizes kept in memory. The directory it creates is {@code rwx------} and its
 * files {@code rw-------} from their creation. A directory that cannot be written does not fail
 * the open; each {@link #record} then throws, which the gateway's audit trail counts as a broken
 * sink (with fail-closed on, calls are refused).
 */
public final class FileAuditLog implements AuditSink, AuditLogReader, AutoCloseable {

    private static final String PREFIX = "audit-";
    private static final String SUFFIX = ".jsonl";

    /** One file of the log: its day and part (0 for the day's first file), ordered oldest first. */
    record Part(LocalDate day, int part) implements Comparable<Part> {
        @Override
        public int compareTo(Part o) {
            int byDay = day.compareTo(o.day);
            return byDay != 0 ? byDay : Integer.compare(part, o.part);
        }

        String fileName() {
            return PREFIX + day + (part == 0 ? "" : "." + part) + SUFFIX;
        }

        static Optional<Part> of(String name) {
            if (!name.startsWith(PREFIX) || !name.endsWith(SUFFIX)) {
                return Optional.empty();
            }
            String core = name.substring(PREFIX.length(), name.length() - SUFFIX.length());
            int dot = core.indexOf('.');
            try {
                return Optional.of(new Part(LocalDate.parse(dot < 0 ? core : core.substring(0, dot)),
                        dot < 0 ? 0 : Integer.parseInt(core.substring(dot + 1))));
            } catch (RuntimeException e) {
                return Optional.empty();
            }
        }
    }

    private final Path dir;
    private final Retention retention;
    private final Clock clock;
    private final ReentrantLock lock = new ReentrantLock();
    private final SegmentLedger<Part> sizes = new SegmentLedger<>();
    private Part current;
    private FileChannel out;

    private FileAuditLog(Path dir, Retention retention, Clock clock) {
        this.dir = dir;
        this.retention = retention;
        this.clock = clock;
    }

    /** Opens the log in {@code dir} with {@link Retention#DEFAULT}. */
    public static FileAuditLog open(Path dir) throws IOException {
        return open(dir, Retention.DEFAULT, Clock.systemUTC());
    }

    /**
     * Opens the log in {@code dir}, creating it if it can and applying the retention to what is
     * there.
     *
     * @param clock the time file ages are measured by
     */
    public static FileAuditLog open(Path dir, Retention retention, Clock clock) throws IOException {
        Objects.requireNonNull(dir, "dir");
        FileAuditLog log = new FileAuditLog(dir, Objects.requireNonNull(retention, "retention"),
                Objects.requireNonNull(clock, "clock"));
        try {
            log.scan();
            log.retain(0);
        } catch (IOException e) {
            // Said by the audit trail when a record cannot be written; the gateway still starts.
            System.getLogger(FileAuditLog.class.getName()).log(System.Logger.Level.WARNING,
                    "the audit log in {0} cannot be opened now: {1}", dir, e.toString());
        }
        return log;
    }

    /**
     * The log in {@code dir} read back, without opening it for writing: nothing is created, removed
     * or retained (what {@code warden audit-log} reads while a gateway writes).
     */
    public static AuditLogReader reader(Path dir) {
        return new AuditFileReader(dir);
    }

    /** What this log holds, newest first (read from its files, not from memory: it survives a restart). */
    @Override
    public List<AuditRecord> list(AuditQuery query) {
        return new AuditFileReader(dir).list(query);
    }

    private void scan() throws IOException {
        OwnerOnly.createDirectories(dir);
        sizes.clear();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                Optional<Part> part = Part.of(file.getFileName().toString());
                if (part.isPresent()) {
                    sizes.put(part.get(), Files.size(file));
                }
            }
        }
    }

    @Override
    public void record(AuditRecord r) throws IOException {
        byte[] bytes = line(r).getBytes(StandardCharsets.UTF_8);
        lock.lock();
        try {
            LocalDate day = LocalDate.ofInstant(r.time(), ZoneOffset.UTC);
            if (out == null && !Files.isDirectory(dir)) {
                scan();
            }
            if (out == null || current == null || !current.day().equals(day)) {
                switchTo(latestPartOf(day)); // also after a write that failed and closed the file
            }
            long size = sizes.size(current);
            if (size > 0 && size + bytes.length > retention.maxBytes() / 4) {
                switchTo(new Part(day, current.part() + 1));
                size = 0;
            }
            retain(bytes.length);
            try {
                append(bytes);
            } catch (ClosedByInterruptException e) {
                rewriteAfterInterrupt(size, bytes);
            } catch (IOException e) {
                if (!Appends.cutBack(out, size)) {
                    closeOut();
                }
                throw e;
            }
            sizes.put(current, size + bytes.length);
        } finally {
            lock.unlock();
        }
    }

    private void append(byte[] bytes) throws IOException {
        Appends.write(out, bytes);
    }

    /**
     * The writing thread was interrupted (the request being recorded was cancelled by its client),
     * and the channel closed under it: the interrupt stops the request's work, not its record. The
     * file is opened again, cut back to where the record began, and the record written whole; the
     * interrupt is kept for the caller.
     */
    private void rewriteAfterInterrupt(long size, byte[] bytes) throws IOException {
        boolean interrupted = Thread.interrupted();
        Part part = current;
        try {
            closeOut();
            switchTo(part);
            sizes.put(part, size);
            out.truncate(size);
            append(bytes);
        } catch (IOException e) {
            closeOut();
            throw e;
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private Part latestPartOf(LocalDate day) {
        return sizes.floor(new Part(day, Integer.MAX_VALUE)).filter(last -> last.day().equals(day))
                .orElseGet(() -> new Part(day, 0));
    }

    private void switchTo(Part part) throws IOException {
        closeOut();
        current = null;
        FileChannel channel = OwnerOnly.open(dir.resolve(part.fileName()), Set.of(StandardOpenOption.CREATE,
                StandardOpenOption.WRITE, StandardOpenOption.APPEND));
        out = channel;
        current = part;
        sizes.put(part, channel.size());
    }

    /** Whole files, oldest first: days past the maximum age, then as many as it takes for {@code incoming} bytes to fit. */
    private void retain(long incoming) throws IOException {
        LocalDate cutoff = LocalDate.ofInstant(clock.instant().minus(retention.maxAge()), ZoneOffset.UTC);
        sizes.retain(incoming, Optional.ofNullable(current), part -> part.day().isBefore(cutoff), retention,
                part -> Files.deleteIfExists(dir.resolve(part.fileName())));
    }

    private void closeOut() {
        if (out != null) {
            try {
                out.close();
            } catch (IOException e) {
                // a channel that cannot close has nothing more to give
            }
            out = null;
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
        JsonText.string(b, r.time().toString());
        b.append(",\"client\":");
        JsonText.string(b, r.client());
        if (r.upstream().isPresent()) {
            b.append(",\"upstream\":");
            JsonText.string(b, r.upstream().get());
        }
        b.append(",\"method\":");
        JsonText.string(b, r.method());
        if (r.tool().isPresent()) {
            b.append(",\"tool\":");
            JsonText.string(b, r.tool().get());
        }
        b.append(",\"durationMs\":").append(r.duration().toNanos() / 1_000_000.0);
        b.append(",\"outcome\":");
        JsonText.string(b, r.outcome().name());
        if (r.code().isPresent()) {
            b.append(",\"code\":");
            JsonText.string(b, r.code().get());
        }
        if (r.ref().isPresent()) {
            b.append(",\"ref\":");
            JsonText.string(b, r.ref().get());
        }
        if (r.subject().isPresent()) {
            b.append(",\"subject\":");
            JsonText.string(b, r.subject().get());
        }
        if (r.clientId().isPresent()) {
            b.append(",\"clientId\":");
            JsonText.string(b, r.clientId().get());
        }
        if (r.issuer().isPresent()) {
            b.append(",\"issuer\":");
            JsonText.string(b, r.issuer().get());
        }
        if (r.kind().isPresent()) {
            b.append(",\"kind\":");
            JsonText.string(b, r.kind().get());
        }
        return b.append("}\n").toString();
    }


    @Override
    public void close() throws IOException {
        lock.lock();
        try {
            closeOut();
            current = null;
        } finally {
            lock.unlock();
        }
    }
}
