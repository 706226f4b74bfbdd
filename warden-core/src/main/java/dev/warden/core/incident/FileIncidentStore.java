package dev.warden.core.incident;

import dev.warden.core.error.ErrorCode;
import dev.warden.core.error.Incident;
import dev.warden.core.error.Ref;
import dev.warden.core.json.Json;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The embedded incident store: append-only JSON lines in size-rotated segments under a data
 * directory, with a sorted index per sealed segment.
 *
 * <ul>
 *   <li><b>Writing.</b> Each record is one line written with a single {@code write} to the active
 *       segment, so a killed writer leaves at most one partial line, which the next writer cuts
 *       off. With {@code fsync} every record is also forced to disk (survives power loss).</li>
 *   <li><b>Rotation.</b> When the active segment passes its size limit it is sealed: its index
 *       (fixed-width entries {@code ref offset length}, sorted by ref) is written to a temporary
 *       file and renamed into place, then a new segment starts.</li>
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

    private final Path dir;
    private final long segmentBytes;
    private final boolean fsync;
    private final boolean writable;
    private FileChannel active;
    private int activeNumber;
    private long activeSize;
    private final Map<String, long[]> activeIndex = new HashMap<>();

    private FileIncidentStore(Path dir, long segmentBytes, boolean fsync, boolean writable) {
        this.dir = dir;
        this.segmentBytes = segmentBytes;
        this.fsync = fsync;
        this.writable = writable;
    }

    /** Opens (creating if needed) a store for writing, recovering from a previous crash. */
    public static FileIncidentStore open(Path dir) {
        return open(dir, DEFAULT_SEGMENT_BYTES, false);
    }

    public static FileIncidentStore open(Path dir, long segmentBytes, boolean fsync) {
        Objects.requireNonNull(dir, "dir");
        if (segmentBytes < 4096) {
            throw new IllegalArgumentException("segmentBytes must be at least 4096, got " + segmentBytes);
        }
        FileIncidentStore store = new FileIncidentStore(dir, segmentBytes, fsync, true);
        try {
            Files.createDirectories(dir);
            store.recover();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the incident store in " + dir, e);
        }
        return store;
    }

    /** Opens a store for reading only; never changes a file. */
    public static FileIncidentStore openReadOnly(Path dir) {
        Objects.requireNonNull(dir, "dir");
        return new FileIncidentStore(dir, DEFAULT_SEGMENT_BYTES, false, false);
    }

    public Path directory() {
        return dir;
    }

    // ---- writing ------------------------------------------------------------------------------

    private void recover() throws IOException {
        List<Integer> numbers = segmentNumbers();
        for (int i = 0; i < numbers.size() - 1; i++) {
            if (!Files.exists(indexPath(numbers.get(i)))) {
                writeIndex(numbers.get(i), scanSegment(numbers.get(i)));
            }
        }
        activeNumber = numbers.isEmpty() ? 1 : numbers.get(numbers.size() - 1);
        Path segment = segmentPath(activeNumber);
        active = FileChannel.open(segment, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.READ);
        long size = active.size();
        long complete = lastCompleteLineEnd(active, size);
        if (complete < size) {
            LOG.log(System.Logger.Level.WARNING, "incident store: cutting a partial record ({0} bytes) left by a crash",
                    size - complete);
            active.truncate(complete);
        }
        activeSize = complete;
        active.position(activeSize);
        activeIndex.putAll(scanSegment(activeNumber));
    }

    @Override
    public synchronized void record(Incident incident) {
        if (!writable) {
            throw new IllegalStateException("the incident store was opened read-only");
        }
        byte[] line = (IncidentJson.toJson(incident).toString() + "\n").getBytes(StandardCharsets.UTF_8);
        try {
            if (activeSize > 0 && activeSize + line.length > segmentBytes) {
                rotate();
            }
            ByteBuffer buffer = ByteBuffer.wrap(line);
            long offset = activeSize;
            while (buffer.hasRemaining()) {
                active.write(buffer);
            }
            if (fsync) {
                active.force(false);
            }
            activeSize += line.length;
            activeIndex.put(incident.ref().value(), new long[] {offset, line.length});
        } catch (IOException e) {
            LOG.log(System.Logger.Level.ERROR, "incident store: could not write incident " + incident.ref(), e);
        }
    }

    private void rotate() throws IOException {
        active.force(true);
        active.close();
        writeIndex(activeNumber, activeIndex);
        activeIndex.clear();
        activeNumber++;
        active = FileChannel.open(segmentPath(activeNumber), StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.READ);
        activeSize = 0;
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
        Files.writeString(tmp, sb.toString(), StandardCharsets.US_ASCII);
        try (FileChannel channel = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
            channel.force(true);
        }
        try {
            Files.move(tmp, indexPath(number), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, indexPath(number), StandardCopyOption.REPLACE_EXISTING);
        }
    }

    @Override
    public synchronized void close() {
        if (active != null) {
            try {
                active.close();
            } catch (IOException e) {
                LOG.log(System.Logger.Level.WARNING, "incident store: close failed", e);
            }
            active = null;
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
                List<Incident> segment = readSegment(numbers.get(i));
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

    private synchronized int activeNumber() {
        return activeNumber;
    }

    private synchronized Optional<long[]> activeLocation(Ref ref) {
        return Optional.ofNullable(activeIndex.get(ref.value()));
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

    private static long lastCompleteLineEnd(FileChannel channel, long size) throws IOException {
        long pos = size;
        ByteBuffer one = ByteBuffer.allocate(1);
        while (pos > 0) {
            one.clear();
            channel.read(one, pos - 1);
            if (one.get(0) == '\n') {
                return pos;
            }
            pos--;
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
