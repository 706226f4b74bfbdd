package dev.warden.core.incident;

import dev.warden.core.error.ErrorCode;
import dev.warden.core.error.Ref;
import dev.warden.core.error.UnrecordedRefs;
import dev.warden.core.json.JsonText;
import dev.warden.core.segment.OwnerOnly;
import dev.warden.core.segment.Retention;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.UnaryOperator;

/**
 * The embedded incident store: append-only JSON lines in size-rotated segments, each sealed segment
 * with a sorted index, so lookup by ref never scans the whole history. Records queued together go
 * out in one {@code write} of whole lines (a killed writer leaves at most one partial line, cut off
 * by the next writer), with credentials replaced first ({@link AtRest}); files are owner-only
 * ({@link OwnerOnly}); {@link #record} returns once its record is written. A failed
 * write loses the incident, never the call: its ref is marked {@link UnrecordedRefs unrecorded} and
 * {@link #recording()} is false until a write succeeds. Readers may open the directory while a
 * writer runs, and several writers may share it, each in a lane of its own ({@link WriterLane}):
 * lookups and listings read every lane. Design: docs/reference/incidents.md; files: {@link
 * Segments}, {@link SegmentWriter}.
 */
public final class FileIncidentStore implements IncidentStore {

    public static final long DEFAULT_SEGMENT_BYTES = 16L * 1024 * 1024;
    private static final System.Logger LOG = System.getLogger(FileIncidentStore.class.getName());
    /** How often a store that could not open its segment tries again when asked whether it records. */
    private static final Duration PROBE_PERIOD = Duration.ofSeconds(1);

    /** One record on its way to the disk, serialized by the caller outside the lock. */
    private static final class Pending {
        final Incident incident;
        final byte[] line;
        /** Written, or given up with its ref marked unrecorded; set and read under the lock. */
        boolean done;

        Pending(Incident incident, byte[] line) {
            this.incident = incident;
            this.line = line;
        }
    }

    /** The directory the store was opened on; every lane is in it. */
    private final Path root;
    private final boolean writable;
    /** Records not yet written, oldest first: the next write takes them all (group commit). */
    private final ConcurrentLinkedQueue<Pending> queue = new ConcurrentLinkedQueue<>();
    private final Retention retention;
    private final Clock clock;
    private final FailureNotice notice;
    /**
     * Guards the writer and the flags below. Not a monitor: on JDK 21 a virtual thread waiting to
     * enter one pins its carrier, and every failing call of a flood waits here.
     */
    private final ReentrantLock lock = new ReentrantLock();
    private final SegmentWriter writer;
    private boolean closed;
    /** Mirrors the notice's state, read without the lock on every request of a fail-closed gateway. */
    private volatile boolean failing;
    private Instant nextProbe = Instant.MIN;

    private FileIncidentStore(Path dir, long segmentBytes, boolean fsync, boolean writable, Retention retention,
            Clock clock, UnaryOperator<FileChannel> channels) {
        this.root = dir;
        this.writable = writable;
        this.retention = retention;
        this.clock = clock;
        this.notice = new FailureNotice(LOG, "the incident store in " + dir, clock, FailureNotice.DEFAULT_PERIOD);
        // A few segments fit in the retained total, so retention removes a part of the history, not all of it.
        this.writer = new SegmentWriter(dir, writable, Math.max(4096, Math.min(segmentBytes, retention.maxBytes() / 4)), fsync,
                retention, clock, channels);
    }

    /** Opens (creating if needed) a store for writing, recovering from a previous crash; {@link Retention#DEFAULT}. */
    public static FileIncidentStore open(Path dir) {
        return open(dir, DEFAULT_SEGMENT_BYTES, false);
    }

    public static FileIncidentStore open(Path dir, Retention retention) {
        return open(dir, DEFAULT_SEGMENT_BYTES, false, retention, Clock.systemUTC());
    }

    public static FileIncidentStore open(Path dir, long segmentBytes, boolean fsync) {
        return open(dir, segmentBytes, fsync, Retention.DEFAULT, Clock.systemUTC());
    }

    /**
     * Opens (creating if needed) a store for writing. A directory that cannot be created or
     * written does not fail the open: the store starts {@linkplain #recording() not recording},
     * says so once, and tries again on each write.
     *
     * @param clock the time retention measures ages by (and failure notices their period)
     */
    public static FileIncidentStore open(Path dir, long segmentBytes, boolean fsync, Retention retention, Clock clock) {
        return open(dir, segmentBytes, fsync, retention, clock, UnaryOperator.identity());
    }

    /** {@link #open(Path, long, boolean, Retention, Clock)} with each segment's channel passed through {@code channels} (a test's full disk). */
    static FileIncidentStore open(Path dir, long segmentBytes, boolean fsync, Retention retention, Clock clock,
            UnaryOperator<FileChannel> channels) {
        Objects.requireNonNull(dir, "dir");
        Objects.requireNonNull(retention, "retention");
        Objects.requireNonNull(clock, "clock");
        if (segmentBytes < 4096) {
            throw new IllegalArgumentException("segmentBytes must be at least 4096, got " + segmentBytes);
        }
        FileIncidentStore store = new FileIncidentStore(dir, segmentBytes, fsync, true, retention, clock, channels);
        store.lock.lock();
        try {
            store.writer.recover(); // takes the store's lane first
        } catch (IOException | UncheckedIOException e) {
            store.lost(e);
        } finally {
            store.lock.unlock();
        }
        return store;
    }

    /** Opens a store for reading only; never changes a file. */
    public static FileIncidentStore openReadOnly(Path dir) {
        Objects.requireNonNull(dir, "dir");
        return new FileIncidentStore(dir, DEFAULT_SEGMENT_BYTES, false, false, Retention.DEFAULT, Clock.systemUTC(),
                UnaryOperator.identity());
    }

    public Path directory() {
        return root;
    }

    public Retention retention() {
        return retention;
    }

    // ---- writing ------------------------------------------------------------------------------

    /**
     * Records the incident and returns once its line is written (or given up, its ref then
     * {@link UnrecordedRefs marked}): an answer that carries its ref means a record a SIGKILL does
     * not lose. Callers that arrive while a write runs have their lines written together by the
     * next one (group commit), rather than each queueing on the lock for a write of its own.
     */
    @Override
    public void record(Incident incident) {
        if (!writable) {
            throw new IllegalStateException("the incident store was opened read-only");
        }
        Pending mine = new Pending(incident, lineOf(incident));
        queue.add(mine);
        // A FileChannel closes itself when its thread is interrupted, and callers are interrupted
        // routinely (Reactor cancels a subscription, a client cancels its request): the flag is set
        // aside for the write and given back, so the failure is still recorded and its ref kept.
        boolean interrupted = Thread.interrupted();
        lock.lock();
        try {
            if (!mine.done) {
                interrupted |= drain();
            }
        } finally {
            lock.unlock();
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static byte[] lineOf(Incident incident) {
        StringBuilder line = new StringBuilder(512);
        JsonText.append(line, IncidentJson.stored(AtRest.redacted(incident))); // the mapper's text, without its writer
        return line.append('\n').toString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Writes everything queued, in the order queued, in as few writes as the segments allow;
     * returns whether an interrupt arrived during a write (and was set aside for a second try).
     * Called with the lock held.
     */
    private boolean drain() {
        List<Pending> batch = new ArrayList<>();
        for (Pending p = queue.poll(); p != null; p = queue.poll()) {
            batch.add(p);
        }
        if (batch.isEmpty()) {
            return false;
        }
        if (closed) {
            batch.forEach(FileIncidentStore::unrecorded); // failures rendered while the process shuts down
            return false;
        }
        List<SegmentWriter.Line> lines = new ArrayList<>(batch.size());
        for (Pending p : batch) {
            lines.add(new SegmentWriter.Line(p.incident.ref().value(), p.incident.time(), p.line));
        }
        boolean interrupted = false;
        int from = 0;
        for (int attempt = 1; from < lines.size(); ) {
            try {
                int wrote = writer.appendSome(lines.subList(from, lines.size()));
                for (int i = from; i < from + wrote; i++) {
                    batch.get(i).done = true;
                }
                from += wrote;
                ok();
            } catch (ClosedByInterruptException e) {
                interrupted = true;
                Thread.interrupted(); // the segment was closed and cut back; the next append reopens it
                if (attempt++ == 2) {
                    lose(batch.subList(from, batch.size()), e);
                    return true;
                }
            } catch (IOException | UncheckedIOException e) {
                lose(batch.subList(from, batch.size()), e);
                return interrupted;
            }
        }
        return interrupted;
    }

    private void lose(List<Pending> lost, Exception e) {
        lost.forEach(FileIncidentStore::unrecorded);
        lost(e);
    }

    private static void unrecorded(Pending p) {
        UnrecordedRefs.mark(p.incident.ref());
        p.done = true;
    }

    /**
     * False from a failed write until one succeeds. A store that could not open its segment (a
     * read-only or missing directory) tries again here, at most once a second by its clock, so a
     * gateway that refuses calls while the store fails learns that it works again without a write.
     */
    @Override
    public boolean recording() {
        if (!failing) {
            return true;
        }
        lock.lock();
        try {
            Instant now = clock.instant();
            if (failing && !writer.open() && !closed && !now.isBefore(nextProbe)) {
                nextProbe = now.plus(PROBE_PERIOD);
                try {
                    writer.recover();
                    ok();
                } catch (IOException | UncheckedIOException e) {
                    lost(e);
                }
            }
            return !failing;
        } finally {
            lock.unlock();
        }
    }

    private void ok() {
        failing = false;
        notice.succeeded();
    }

    private void lost(Exception e) {
        failing = true;
        notice.failed(e);
    }

    @Override
    public void close() {
        boolean interrupted = Thread.interrupted();
        lock.lock();
        try {
            interrupted |= drain(); // what is queued is written before the store closes
            closed = true;
            writer.close();
            writer.release();
        } finally {
            lock.unlock();
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    // ---- reading ------------------------------------------------------------------------------

    @Override
    public Optional<Incident> find(Ref ref) {
        Objects.requireNonNull(ref, "ref");
        try {
            Segments files = writer.files();
            Optional<Incident> own = find(files, ref, writable);
            if (own.isPresent()) {
                return own;
            }
            for (Path other : WriterLane.all(root)) {
                if (!other.equals(files.directory())) {
                    Optional<Incident> found = find(new Segments(other), ref, false);
                    if (found.isPresent()) {
                        return found;
                    }
                }
            }
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the incident store in " + root, e);
        }
    }

    /** The record of {@code ref} in one lane's segments, newest first; {@code own}: this store writes that lane. */
    private Optional<Incident> find(Segments lane, Ref ref, boolean own) throws IOException {
        List<Integer> numbers = lane.numbers();
        for (int i = numbers.size() - 1; i >= 0; i--) {
            int number = numbers.get(i);
            try {
                Optional<long[]> location;
                if (Files.exists(lane.index(number))) {
                    location = SegmentIndex.search(lane.index(number), ref.value());
                } else if (own && number == activeNumber()) {
                    location = activeLocation(ref); // the writer keeps its active segment's entries in memory
                } else {
                    location = Optional.ofNullable(lane.scan(number).get(ref.value()));
                }
                if (location.isPresent()) {
                    return Optional.of(lane.read(number, location.get()));
                }
            } catch (NoSuchFileException gone) {
                // removed by the writer's retention while this reader looked: older than what is kept
            }
        }
        return Optional.empty();
    }

    @Override
    public List<Incident> list(Instant since, Optional<Instant> until, Optional<ErrorCode> code, int limit) {
        Objects.requireNonNull(since, "since");
        Objects.requireNonNull(until, "until");
        List<Incident> out = new ArrayList<>();
        try {
            for (Path lane : WriterLane.all(root)) {
                out.addAll(list(new Segments(lane), since, until, code, limit));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the incident store in " + root, e);
        }
        out.sort(Comparator.comparing(Incident::time).reversed());
        return out.size() > limit ? List.copyOf(out.subList(0, limit)) : out;
    }

    /** Up to {@code limit} of one lane's records in the period, newest segments first. */
    private static List<Incident> list(Segments lane, Instant since, Optional<Instant> until, Optional<ErrorCode> code,
            int limit) throws IOException {
        List<Incident> out = new ArrayList<>();
        List<Integer> numbers = lane.numbers();
        for (int i = numbers.size() - 1; i >= 0 && out.size() < limit; i--) {
            List<SegmentLine> segment;
            try {
                segment = lane.lines(numbers.get(i));
            } catch (NoSuchFileException gone) {
                break; // removed by the writer's retention: it and everything before it are past what is kept
            }
            boolean older = false;
            for (int k = segment.size() - 1; k >= 0 && out.size() < limit; k--) {
                SegmentLine line = segment.get(k);
                // Most records are passed over by their head's time and code: only those kept are parsed
                // (a line that starts otherwise, written by no writer of today, is parsed to be judged).
                Optional<SegmentLine.Head> head = line.head().or(() -> line.incident()
                        .map(parsed -> new SegmentLine.Head(parsed.time(), parsed.code().name())));
                if (head.isEmpty()) {
                    continue;
                }
                Instant time = head.get().time();
                if (time.isBefore(since)) {
                    older = true;
                    continue;
                }
                if (until.isPresent() && !time.isBefore(until.get())) {
                    continue; // newer than the period: not counted against the limit
                }
                if (code.isEmpty() || code.get().name().equals(head.get().code())) {
                    line.incident().ifPresent(out::add);
                }
            }
            if (older) {
                break;
            }
        }
        return out;
    }

    /**
     * The number of the segment whose entries the writer keeps in memory; none (0, segments start at
     * 1) while it has no segment open, when the lane's files are read from disk like another's.
     */
    private int activeNumber() {
        lock.lock();
        try {
            return writer.open() ? writer.activeNumber() : 0;
        } finally {
            lock.unlock();
        }
    }

    private Optional<long[]> activeLocation(Ref ref) {
        lock.lock();
        try {
            return writer.activeLocation(ref.value());
        } finally {
            lock.unlock();
        }
    }
}
