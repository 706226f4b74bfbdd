package dev.warden.core.incident;

import dev.warden.core.segment.Appends;
import dev.warden.core.segment.OwnerOnly;
import dev.warden.core.segment.Retention;
import dev.warden.core.segment.SegmentLedger;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * The writing side of a {@link FileIncidentStore}: the active segment (its channel, size, the
 * entries of its future index, its newest record's time), the sealed segments as retention sees
 * them, and the rotation and retention that move between them. Not thread-safe: the store calls
 * it under its lock.
 */
final class SegmentWriter {

    private static final System.Logger LOG = System.getLogger(FileIncidentStore.class.getName());
    /** The most one write carries: a flood's backlog goes out in pieces of this, not as one buffer of all of it. */
    static final int MAX_WRITE = 256 * 1024;
    private static final Set<StandardOpenOption> SEGMENT_OPTIONS = Set.of(StandardOpenOption.CREATE,
            StandardOpenOption.WRITE, StandardOpenOption.READ);

    /** A sealed segment as retention sees it: its number (oldest first) and its newest record's time. */
    private record Sealed(int number, Optional<Instant> newest) implements Comparable<Sealed> {
        @Override
        public int compareTo(Sealed o) {
            return Integer.compare(number, o.number);
        }
    }

    /** The directory the store was opened on: the first lane, and where the others are. */
    private final Path root;
    /** Whether this writer takes a lane before writing (false: a read-only store's, which never writes). */
    private final boolean claimsLane;
    /** The segments of this writer's lane once taken; the root's until then. */
    private volatile Segments files;
    private Optional<WriterLane> lane = Optional.empty();
    private final long segmentBytes;
    private final boolean fsync;
    private final Retention retention;
    private final Clock clock;
    private final UnaryOperator<FileChannel> channels;
    private FileChannel active;
    private int activeNumber;
    private long activeSize;
    private Optional<Instant> activeNewest = Optional.empty();
    private final Map<String, long[]> activeIndex = new HashMap<>();
    /** The sealed segments' bytes on disk, each with its index. */
    private final SegmentLedger<Sealed> sealed = new SegmentLedger<>();

    SegmentWriter(Path root, boolean claimsLane, long segmentBytes, boolean fsync, Retention retention, Clock clock,
                  UnaryOperator<FileChannel> channels) {
        this.root = root;
        this.claimsLane = claimsLane;
        this.files = new Segments(root);
        this.segmentBytes = segmentBytes;
        this.fsync = fsync;
        this.retention = retention;
        this.clock = clock;
        this.channels = channels;
    }

    /** Whether a segment is open for writing: false before {@link #recover()}, after a failure closed it, after close. */
    boolean open() {
        return active != null;
    }

    int activeNumber() {
        return activeNumber;
    }

    /** Where the record of {@code ref} is in the active segment, whose index is not written yet. */
    Optional<long[]> activeLocation(String ref) {
        return Optional.ofNullable(activeIndex.get(ref));
    }

    /** The segments this writer writes: its lane's, once taken. */
    Segments files() {
        return files;
    }

    /**
     * Takes a lane if it holds none yet (at open, or at a later try when the directory could not be
     * written then), reads the lane's state (sealing what a crash left unsealed) and applies retention.
     */
    void recover() throws IOException {
        close();
        if (claimsLane && lane.isEmpty()) {
            WriterLane taken = WriterLane.claim(root);
            lane = Optional.of(taken);
            files = new Segments(taken.directory());
        }
        sealed.clear();
        activeIndex.clear();
        OwnerOnly.createDirectories(files.directory());
        files.deleteHalfWrittenIndexes();
        List<Integer> numbers = files.numbers();
        for (int i = 0; i < numbers.size() - 1; i++) {
            int number = numbers.get(i);
            if (!Files.exists(files.index(number))) {
                SegmentIndex.write(files.index(number), files.scan(number));
            }
            sealed.put(new Sealed(number, Segments.newestTime(files.segment(number))),
                    Files.size(files.segment(number)) + Files.size(files.index(number)));
        }
        activeNumber = numbers.isEmpty() ? 1 : numbers.get(numbers.size() - 1);
        FileChannel channel = channels.apply(OwnerOnly.open(files.segment(activeNumber), SEGMENT_OPTIONS));
        long size = channel.size();
        long complete = Segments.lastCompleteLineEnd(channel, size);
        if (complete < size) {
            LOG.log(System.Logger.Level.WARNING, "incident store: cutting a partial record ({0} bytes) left by a crash",
                    size - complete);
            channel.truncate(complete);
        }
        active = channel;
        activeSize = complete;
        active.position(activeSize);
        activeIndex.putAll(files.scan(activeNumber));
        activeNewest = Segments.newestTime(files.segment(activeNumber));
        retain(0);
    }

    /** One record's line, and what the index and retention keep of it. */
    record Line(String ref, Instant time, byte[] bytes) {
    }

    /**
     * Appends the first of {@code lines} and as many after it as fit in the active segment (and
     * in {@link #MAX_WRITE}) with a single write, reopening first if a failure closed the segment,
     * rotating and applying retention as needed; returns how many it wrote. Records queued
     * together go out together: one system call for a burst of failures, not one each. A write
     * that fails is cut off at once, whole, so none of its records stays.
     */
    int appendSome(List<Line> lines) throws IOException {
        if (active == null) {
            recover(); // it could not open, or a failure closed it: the disk may be back
        }
        byte[] first = lines.get(0).bytes();
        if (activeSize > 0 && activeSize + first.length > segmentBytes) {
            rotate();
        }
        int count = 1;
        long bytes = first.length;
        while (count < lines.size()) {
            long more = bytes + lines.get(count).bytes().length;
            if (activeSize + more > segmentBytes || more > MAX_WRITE) {
                break;
            }
            bytes = more;
            count++;
        }
        retain(bytes);
        byte[] out = first;
        if (count > 1) {
            out = new byte[(int) bytes];
            int at = 0;
            for (int i = 0; i < count; i++) {
                byte[] line = lines.get(i).bytes();
                System.arraycopy(line, 0, out, at, line.length);
                at += line.length;
            }
        }
        try {
            Appends.write(active, out);
            if (fsync) {
                active.force(false);
            }
        } catch (IOException e) {
            cutBack();
            throw e;
        }
        for (int i = 0; i < count; i++) {
            Line line = lines.get(i);
            activeIndex.put(line.ref(), new long[] {activeSize, line.bytes().length});
            activeSize += line.bytes().length;
            Instant time = line.time();
            activeNewest = Optional.of(activeNewest.filter(t -> t.isAfter(time)).orElse(time));
        }
        return count;
    }

    /** After a failed write: the segment back to its last whole record, or closed (reopened and cut by the next write). */
    private void cutBack() {
        if (!Appends.cutBack(active, activeSize)) {
            close();
        }
    }

    /**
     * Removes whole segments, oldest first: those whose newest record is older than the maximum
     * age (the active one too, when all it holds is that old), then as many as it takes for
     * {@code incoming} more bytes to fit. Works on the sizes and times kept in memory.
     */
    private void retain(long incoming) throws IOException {
        Instant cutoff = clock.instant().minus(retention.maxAge());
        if (activeSize > 0 && activeNewest.map(t -> t.isBefore(cutoff)).orElse(false)) {
            // Everything in the active segment is past the age: it goes, and a new segment starts.
            int old = activeNumber;
            FileChannel next = channels.apply(OwnerOnly.open(files.segment(old + 1), SEGMENT_OPTIONS));
            close();
            active = next;
            activeNumber = old + 1;
            activeSize = 0;
            activeIndex.clear();
            activeNewest = Optional.empty();
            Files.deleteIfExists(files.segment(old));
            Files.deleteIfExists(files.index(old));
        }
        sealed.retain(activeSize + incoming, Optional.empty(),
                s -> s.newest().map(t -> t.isBefore(cutoff)).orElse(true), retention, this::drop);
    }

    private void drop(Sealed segment) throws IOException {
        // The index first: a segment without its index is rebuilt by the next open, an index without its segment is not read.
        Files.deleteIfExists(files.index(segment.number()));
        Files.deleteIfExists(files.segment(segment.number()));
    }

    private void rotate() throws IOException {
        active.force(true);
        // The next segment first: if it cannot be made, the active one stays as it was (no index for half of it).
        FileChannel next = channels.apply(OwnerOnly.open(files.segment(activeNumber + 1), SEGMENT_OPTIONS));
        try {
            SegmentIndex.write(files.index(activeNumber), activeIndex);
        } catch (IOException e) {
            next.close();
            Files.deleteIfExists(files.segment(activeNumber + 1));
            throw e;
        }
        sealed.put(new Sealed(activeNumber, activeNewest), activeSize + Files.size(files.index(activeNumber)));
        close();
        active = next;
        activeIndex.clear();
        activeNumber++;
        activeSize = 0;
        activeNewest = Optional.empty();
    }

    /** Closes the active segment, if open; a failure to close is logged, never thrown. */
    void close() {
        if (active != null) {
            try {
                active.close();
            } catch (IOException e) {
                LOG.log(System.Logger.Level.WARNING, "incident store: close failed: {0}", e.toString());
            }
            active = null;
        }
    }

    /** Lets the next writer take this writer's lane; a lock that will not close goes with the process. */
    void release() {
        if (lane.isPresent()) {
            try {
                lane.get().close();
            } catch (IOException e) {
                LOG.log(System.Logger.Level.DEBUG, "incident store: releasing the writer lane", e);
            }
            lane = Optional.empty();
        }
    }
}
