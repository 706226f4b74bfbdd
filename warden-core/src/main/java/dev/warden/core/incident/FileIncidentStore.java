package dev.warden.core.incident;

import dev.warden.core.error.ErrorCode;
import dev.warden.core.error.Ref;
import dev.warden.core.error.UnrecordedRefs;
import dev.warden.core.json.Json;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

/**
 * The embedded incident store: append-only JSON lines in size-rotated segments under a data
 * directory, with a sorted index per sealed segment.
 *
 * <ul>
 *   <li><b>Writing.</b> Each record is one line written with a single {@code write} to the active
 *       segment, so a killed writer leaves at most one partial line, which the next writer cuts
 *       off; a write that fails (a full disk) is cut off at once. With {@code fsync} every record
 *       is also forced to disk (survives power loss). Credentials are replaced before writing
 *       ({@link AtRest}); findings are written compactly ({@link IncidentJson#stored}).</li>
 *   <li><b>Rotation.</b> When the active segment passes its size limit it is sealed: its index
 *       (fixed-width entries {@code ref offset length}, sorted by ref) is written to a temporary
 *       file and renamed into place, then a new segment starts.</li>
 *   <li><b>Retention.</b> Whole segments go, oldest first, when the store would pass
 *       {@link Retention#maxBytes()} or their newest record is older than {@link Retention#maxAge()}
 *       (by the injected clock): checked at open and on each write against sizes and times kept in
 *       memory, so a write never scans the directory.</li>
 *   <li><b>Owner only.</b> The directories it creates are {@code rwx------}, its files
 *       {@code rw-------}, from their creation ({@link OwnerOnly}).</li>
 *   <li><b>A disk that fails.</b> A write that fails loses that incident, not the call: the ref is
 *       marked {@link UnrecordedRefs unrecorded} (the peer is not given a ref that cannot be found),
 *       {@link #recording()} turns false until a write succeeds again, and the failure is logged
 *       once a minute ({@link FailureNotice}), never as a stack trace per write. A store that
 *       cannot even open its directory starts that way and retries on each write.</li>
 *   <li><b>Lookup by ref</b> is a binary search in each sealed segment's index plus a scan of the
 *       active segment (bounded by the segment size): never a scan of the whole history.</li>
 * </ul>
 *
 * Readers (the {@code warden incidents} command) may open the directory while a writer runs.
 */
public final class FileIncidentStore implements IncidentStore {

    public static final long DEFAULT_SEGMENT_BYTES = 16L * 1024 * 1024;
    private static final System.Logger LOG = System.getLogger(FileIncidentStore.class.getName());
    private static final String SEGMENT_PREFIX = "incidents-";
    private static final String SEGMENT_SUFFIX = ".jsonl";
    private static final String INDEX_SUFFIX = ".idx";
    /** {@code ref_xxxxxxxxxxxxxxxx} (20) + space + 12-digit offset + space + 8-digit length + newline. */
    private static final int INDEX_ENTRY = 20 + 1 + 12 + 1 + 8 + 1;
    private static final Set<StandardOpenOption> SEGMENT_OPTIONS = Set.of(StandardOpenOption.CREATE,
            StandardOpenOption.WRITE, StandardOpenOption.READ);

    /** A sealed segment as retention sees it: its bytes on disk (with its index) and its newest record's time. */
    private record Sealed(long bytes, Optional<Instant> newest) {
    }

    private final Path dir;
    private final long segmentBytes;
    private final boolean fsync;
    private final boolean writable;
    private final Retention retention;
    private final Clock clock;
    private final UnaryOperator<FileChannel> channels;
    private final FailureNotice notice;
    private FileChannel active;
    private int activeNumber;
    private long activeSize;
    private Optional<Instant> activeNewest = Optional.empty();
    private final Map<String, long[]> activeIndex = new HashMap<>();
    private final TreeMap<Integer, Sealed> sealed = new TreeMap<>();
    private long sealedBytes;
    private boolean closed;
    /**
     * Guards the writer's state. Not a monitor: on JDK 21 a virtual thread waiting to enter one
     * pins its carrier, and every failing call of a flood waits here.
     */
    private final ReentrantLock lock = new ReentrantLock();
    /** Mirrors the notice's state, read without the lock on every request of a fail-closed gateway. */
    private volatile boolean failing;
    private Instant nextProbe = Instant.MIN;
    /** How often a store that could not open its segment tries again when asked whether it records. */
    private static final java.time.Duration PROBE_PERIOD = java.time.Duration.ofSeconds(1);

    private FileIncidentStore(Path dir, long segmentBytes, boolean fsync, boolean writable, Retention retention,
            Clock clock, UnaryOperator<FileChannel> channels) {
        this.dir = dir;
        // A few segments fit in the retained total, so retention removes a part of the history, not all of it.
        this.segmentBytes = Math.max(4096, Math.min(segmentBytes, retention.maxBytes() / 4));
        this.fsync = fsync;
        this.writable = writable;
        this.retention = retention;
        this.clock = clock;
        this.channels = channels;
        this.notice = new FailureNotice(LOG, "the incident store in " + dir, clock, FailureNotice.DEFAULT_PERIOD);
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
            store.recover();
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
        return dir;
    }

    public Retention retention() {
        return retention;
    }

    // ---- writing ------------------------------------------------------------------------------

    /** Reads the directory's state (sealing what a crash left unsealed) and applies retention. */
    private void recover() throws IOException {
        closeActive();
        sealed.clear();
        sealedBytes = 0;
        activeIndex.clear();
        OwnerOnly.createDirectories(dir);
        try (Stream<Path> files = Files.list(dir)) {
            for (Path stray : (Iterable<Path>) files.filter(p -> p.getFileName().toString().endsWith(INDEX_SUFFIX + ".tmp"))::iterator) {
                Files.deleteIfExists(stray); // an index a crash left half-written; sealing writes it again
            }
        }
        List<Integer> numbers = segmentNumbers();
        for (int i = 0; i < numbers.size() - 1; i++) {
            int number = numbers.get(i);
            if (!Files.exists(indexPath(number))) {
                writeIndex(number, scanSegment(number));
            }
            sealed.put(number, new Sealed(Files.size(segmentPath(number)) + Files.size(indexPath(number)),
                    newestTime(segmentPath(number))));
            sealedBytes += sealed.get(number).bytes();
        }
        activeNumber = numbers.isEmpty() ? 1 : numbers.get(numbers.size() - 1);
        FileChannel channel = channels.apply(OwnerOnly.open(segmentPath(activeNumber), SEGMENT_OPTIONS));
        long size = channel.size();
        long complete = lastCompleteLineEnd(channel, size);
        if (complete < size) {
            LOG.log(System.Logger.Level.WARNING, "incident store: cutting a partial record ({0} bytes) left by a crash",
                    size - complete);
            channel.truncate(complete);
        }
        active = channel;
        activeSize = complete;
        active.position(activeSize);
        activeIndex.putAll(scanSegment(activeNumber));
        activeNewest = newestTime(segmentPath(activeNumber));
        retain(0);
    }

    @Override
    public void record(Incident incident) {
        if (!writable) {
            throw new IllegalStateException("the incident store was opened read-only");
        }
        byte[] line = (IncidentJson.stored(AtRest.redacted(incident)).toString() + "\n").getBytes(StandardCharsets.UTF_8);
        lock.lock();
        try {
            write(incident, line);
        } finally {
            lock.unlock();
        }
    }

    private void write(Incident incident, byte[] line) {
        if (closed) {
            UnrecordedRefs.mark(incident.ref()); // a failure rendered while the process shuts down
            return;
        }
        try {
            if (active == null) {
                recover(); // it could not open, or a failure closed it: the disk may be back
            }
            if (activeSize > 0 && activeSize + line.length > segmentBytes) {
                rotate();
            }
            retain(line.length);
            ByteBuffer buffer = ByteBuffer.wrap(line);
            long offset = activeSize;
            try {
                while (buffer.hasRemaining()) {
                    active.write(buffer);
                }
                if (fsync) {
                    active.force(false);
                }
            } catch (IOException e) {
                cutBack();
                throw e;
            }
            activeSize += line.length;
            activeIndex.put(incident.ref().value(), new long[] {offset, line.length});
            activeNewest = Optional.of(activeNewest.filter(t -> t.isAfter(incident.time())).orElse(incident.time()));
            ok();
        } catch (IOException | UncheckedIOException e) {
            UnrecordedRefs.mark(incident.ref());
            lost(e);
        }
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
            if (failing && active == null && !closed && !now.isBefore(nextProbe)) {
                nextProbe = now.plus(PROBE_PERIOD);
                try {
                    recover();
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

    /** After a failed write: the segment back to its last whole record, or closed (reopened and cut by the next write). */
    private void cutBack() {
        try {
            active.truncate(activeSize);
            active.position(activeSize);
        } catch (IOException e) {
            closeActive();
        }
    }

    /**
     * Removes whole segments, oldest first: those whose newest record is older than the maximum
     * age (the active one too, when all it holds is that old), then as many as it takes for
     * {@code incoming} more bytes to fit. Works on the sizes and times kept in memory.
     */
    private void retain(long incoming) throws IOException {
        Instant cutoff = clock.instant().minus(retention.maxAge());
        while (!sealed.isEmpty() && sealed.firstEntry().getValue().newest().map(t -> t.isBefore(cutoff)).orElse(true)) {
            drop(sealed.firstKey());
        }
        if (activeSize > 0 && activeNewest.map(t -> t.isBefore(cutoff)).orElse(false)) {
            // Everything in the active segment is past the age: it goes, and a new segment starts.
            int old = activeNumber;
            FileChannel next = channels.apply(OwnerOnly.open(segmentPath(old + 1), SEGMENT_OPTIONS));
            closeActive();
            active = next;
            activeNumber = old + 1;
            activeSize = 0;
            activeIndex.clear();
            activeNewest = Optional.empty();
            Files.deleteIfExists(segmentPath(old));
            Files.deleteIfExists(indexPath(old));
        }
        while (!sealed.isEmpty() && sealedBytes + activeSize + incoming > retention.maxBytes()) {
            drop(sealed.firstKey());
        }
    }

    private void drop(int number) throws IOException {
        Sealed gone = sealed.remove(number);
        sealedBytes -= gone.bytes();
        // The index first: a segment without its index is rebuilt by the next open, an index without its segment is not read.
        Files.deleteIfExists(indexPath(number));
        Files.deleteIfExists(segmentPath(number));
    }

    private void rotate() throws IOException {
        active.force(true);
        // The next segment first: if it cannot be made, the active one stays as it was (no index for half of it).
        FileChannel next = channels.apply(OwnerOnly.open(segmentPath(activeNumber + 1), SEGMENT_OPTIONS));
        try {
            writeIndex(activeNumber, activeIndex);
        } catch (IOException e) {
            next.close();
            Files.deleteIfExists(segmentPath(activeNumber + 1));
            throw e;
        }
        long bytes = activeSize + Files.size(indexPath(activeNumber));
        sealed.put(activeNumber, new Sealed(bytes, activeNewest));
        sealedBytes += bytes;
        closeActive();
        active = next;
        activeIndex.clear();
        activeNumber++;
        activeSize = 0;
        activeNewest = Optional.empty();
    }

    private void writeIndex(int number, Map<String, long[]> entries) throws IOException {
        List<Map.Entry<String, long[]>> sorted = new ArrayList<>(entries.entrySet());
        sorted.sort(Map.Entry.comparingByKey());
        StringBuilder sb = new StringBuilder(sorted.size() * INDEX_ENTRY);
        for (Map.Entry<String, long[]> e : sorted) {
            sb.append(e.getKey()).append(' ').append(String.format("%012d", e.getValue()[0])).append(' ')
                    .append(String.format("%08d", e.getValue()[1])).append('\n');
        }
        Path tmp = dir.resolve(indexPath(number).getFileName() + ".tmp");
        try (FileChannel channel = OwnerOnly.open(tmp, Set.of(StandardOpenOption.CREATE,
                StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE))) {
            ByteBuffer bytes = ByteBuffer.wrap(sb.toString().getBytes(StandardCharsets.US_ASCII));
            while (bytes.hasRemaining()) {
                channel.write(bytes);
            }
            channel.force(true);
        } catch (IOException e) {
            Files.deleteIfExists(tmp);
            throw e;
        }
        try {
            Files.move(tmp, indexPath(number), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, indexPath(number), StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /** The time of a segment's last whole record, read from the head of that line; empty if it has none. */
    private static Optional<Instant> newestTime(Path segment) throws IOException {
        try (FileChannel channel = FileChannel.open(segment, StandardOpenOption.READ)) {
            long end = lastCompleteLineEnd(channel, channel.size());
            if (end == 0) {
                return Optional.empty();
            }
            long start = lastCompleteLineEnd(channel, end - 1);
            ByteBuffer head = ByteBuffer.allocate((int) Math.min(160, end - start));
            channel.read(head, start);
            String text = new String(head.array(), 0, head.position(), StandardCharsets.UTF_8);
            int at = text.indexOf("\"time\":\"");
            int close = at < 0 ? -1 : text.indexOf('"', at + 8);
            if (close < 0) {
                return Optional.empty();
            }
            try {
                return Optional.of(Instant.parse(text.substring(at + 8, close)));
            } catch (RuntimeException e) {
                return Optional.empty();
            }
        }
    }

    private void closeActive() {
        if (active != null) {
            try {
                active.close();
            } catch (IOException e) {
                LOG.log(System.Logger.Level.WARNING, "incident store: close failed: {0}", e.toString());
            }
            active = null;
        }
    }

    @Override
    public void close() {
        lock.lock();
        try {
            closed = true;
            closeActive();
        } finally {
            lock.unlock();
        }
    }

    // ---- reading ------------------------------------------------------------------------------

    @Override
    public Optional<Incident> find(Ref ref) {
        Objects.requireNonNull(ref, "ref");
        try {
            List<Integer> numbers = segmentNumbers();
            for (int i = numbers.size() - 1; i >= 0; i--) {
                int number = numbers.get(i);
                try {
                    Optional<long[]> location;
                    if (Files.exists(indexPath(number))) {
                        location = searchIndex(indexPath(number), ref.value());
                    } else if (writable && number == activeNumber()) {
                        location = activeLocation(ref); // the writer keeps its active segment's entries in memory
                    } else {
                        location = Optional.ofNullable(scanSegment(number).get(ref.value()));
                    }
                    if (location.isPresent()) {
                        return Optional.of(readRecord(number, location.get()));
                    }
                } catch (NoSuchFileException gone) {
                    // removed by the writer's retention while this reader looked: older than what is kept
                }
            }
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the incident store in " + dir, e);
        }
    }

    @Override
    public List<Incident> list(Instant since, Optional<ErrorCode> code, int limit) {
        Objects.requireNonNull(since, "since");
        List<Incident> out = new ArrayList<>();
        try {
            List<Integer> numbers = segmentNumbers();
            for (int i = numbers.size() - 1; i >= 0 && out.size() < limit; i--) {
                List<Incident> segment;
                try {
                    segment = readSegment(numbers.get(i));
                } catch (NoSuchFileException gone) {
                    break; // removed by the writer's retention: it and everything before it are past what is kept
                }
                boolean older = false;
                for (int k = segment.size() - 1; k >= 0 && out.size() < limit; k--) {
                    Incident incident = segment.get(k);
                    if (incident.time().isBefore(since)) {
                        older = true;
                        continue;
                    }
                    if (code.isEmpty() || code.get() == incident.code()) {
                        out.add(incident);
                    }
                }
                if (older) {
                    break;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the incident store in " + dir, e);
        }
        out.sort(Comparator.comparing(Incident::time).reversed());
        return out;
    }

    private int activeNumber() {
        lock.lock();
        try {
            return activeNumber;
        } finally {
            lock.unlock();
        }
    }

    private Optional<long[]> activeLocation(Ref ref) {
        lock.lock();
        try {
            return Optional.ofNullable(activeIndex.get(ref.value()));
        } finally {
            lock.unlock();
        }
    }

    private Optional<long[]> searchIndex(Path index, String ref) throws IOException {
        try (RandomAccessFile file = new RandomAccessFile(index.toFile(), "r")) {
            long count = file.length() / INDEX_ENTRY;
            long lo = 0;
            long hi = count - 1;
            byte[] entry = new byte[INDEX_ENTRY];
            while (lo <= hi) {
                long mid = (lo + hi) >>> 1;
                file.seek(mid * INDEX_ENTRY);
                file.readFully(entry);
                String line = new String(entry, StandardCharsets.US_ASCII);
                int cmp = line.substring(0, 20).compareTo(ref);
                if (cmp == 0) {
                    return Optional.of(new long[] {Long.parseLong(line.substring(21, 33)),
                            Long.parseLong(line.substring(34, 42))});
                }
                if (cmp < 0) {
                    lo = mid + 1;
                } else {
                    hi = mid - 1;
                }
            }
            return Optional.empty();
        }
    }

    private Incident readRecord(int number, long[] location) throws IOException {
        try (FileChannel channel = FileChannel.open(segmentPath(number), StandardOpenOption.READ)) {
            ByteBuffer buffer = ByteBuffer.allocate((int) location[1]);
            channel.read(buffer, location[0]);
            return IncidentJson.fromJson(Json.mapper().readTree(buffer.array()));
        }
    }

    /** Complete records of a segment with their offsets; a partial last line is ignored. */
    private Map<String, long[]> scanSegment(int number) throws IOException {
        Map<String, long[]> entries = new HashMap<>();
        byte[] bytes = Files.readAllBytes(segmentPath(number));
        int start = 0;
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == '\n') {
                String ref = refOf(bytes, start, i);
                if (ref != null) {
                    entries.put(ref, new long[] {start, i + 1 - start});
                }
                start = i + 1;
            }
        }
        return entries;
    }

    private List<Incident> readSegment(int number) throws IOException {
        List<Incident> out = new ArrayList<>();
        byte[] bytes = Files.readAllBytes(segmentPath(number));
        int start = 0;
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == '\n') {
                try {
                    out.add(IncidentJson.fromJson(Json.mapper().readTree(new String(bytes, start, i - start,
                            StandardCharsets.UTF_8))));
                } catch (RuntimeException e) {
                    LOG.log(System.Logger.Level.WARNING, "incident store: skipping an unreadable record");
                }
                start = i + 1;
            }
        }
        return out;
    }

    /** The ref of a record line without parsing all of it: records start with {"type":"incident","ref":"…". */
    private static String refOf(byte[] bytes, int start, int end) {
        String head = new String(bytes, start, Math.min(end - start, 80), StandardCharsets.UTF_8);
        int at = head.indexOf("\"ref\":\"");
        if (at < 0 || at + 7 + 20 > head.length()) {
            return null;
        }
        return head.substring(at + 7, at + 27);
    }

    /** The end of the last whole line before {@code size} (just past its newline), read backwards a block at a time. */
    private static long lastCompleteLineEnd(FileChannel channel, long size) throws IOException {
        ByteBuffer block = ByteBuffer.allocate(8192);
        long end = size;
        while (end > 0) {
            long start = Math.max(0, end - block.capacity());
            block.clear().limit((int) (end - start));
            while (block.hasRemaining() && channel.read(block, start + block.position()) >= 0) {
                // read the whole block
            }
            for (int i = block.position() - 1; i >= 0; i--) {
                if (block.get(i) == '\n') {
                    return start + i + 1;
                }
            }
            end = start;
        }
        return 0;
    }

    private List<Integer> segmentNumbers() throws IOException {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString())
                    .filter(name -> name.startsWith(SEGMENT_PREFIX) && name.endsWith(SEGMENT_SUFFIX))
                    .map(name -> name.substring(SEGMENT_PREFIX.length(), name.length() - SEGMENT_SUFFIX.length()))
                    .filter(n -> n.chars().allMatch(Character::isDigit) && !n.isEmpty())
                    .map(Integer::parseInt).sorted().toList();
        }
    }

    private Path segmentPath(int number) {
        return dir.resolve(String.format("%s%06d%s", SEGMENT_PREFIX, number, SEGMENT_SUFFIX));
    }

    private Path indexPath(int number) {
        return dir.resolve(String.format("%s%06d%s", SEGMENT_PREFIX, number, INDEX_SUFFIX));
    }
}
