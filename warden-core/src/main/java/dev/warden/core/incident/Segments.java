package dev.warden.core.incident;

import dev.warden.core.json.Json;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The files of a store directory: numbered segments of JSON lines ({@code incidents-000001.jsonl})
 * and their indexes ({@link SegmentIndex}, {@code incidents-000001.idx}), and how their records
 * are read. Only whole lines are records: a partial last line (a crash mid-write) is never read.
 */
record Segments(Path directory) {

    private static final System.Logger LOG = System.getLogger(FileIncidentStore.class.getName());
    private static final String SEGMENT_PREFIX = "incidents-";
    private static final String SEGMENT_SUFFIX = ".jsonl";
    private static final String INDEX_SUFFIX = ".idx";

    Path segment(int number) {
        return directory.resolve(String.format("%s%06d%s", SEGMENT_PREFIX, number, SEGMENT_SUFFIX));
    }

    Path index(int number) {
        return directory.resolve(String.format("%s%06d%s", SEGMENT_PREFIX, number, INDEX_SUFFIX));
    }

    /** Deletes the indexes a crash left half-written; sealing writes them again. */
    void deleteHalfWrittenIndexes() throws IOException {
        try (Stream<Path> files = Files.list(directory)) {
            for (Path stray : (Iterable<Path>) files.filter(p -> p.getFileName().toString()
                    .endsWith(INDEX_SUFFIX + SegmentIndex.TEMPORARY_SUFFIX))::iterator) {
                Files.deleteIfExists(stray);
            }
        }
    }

    /** The numbers of the segments present, oldest first; none when the directory does not exist. */
    List<Integer> numbers() throws IOException {
        if (!Files.isDirectory(directory)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(directory)) {
            return files.map(p -> p.getFileName().toString())
                    .filter(name -> name.startsWith(SEGMENT_PREFIX) && name.endsWith(SEGMENT_SUFFIX))
                    .map(name -> name.substring(SEGMENT_PREFIX.length(), name.length() - SEGMENT_SUFFIX.length()))
                    .filter(n -> n.chars().allMatch(Character::isDigit) && !n.isEmpty())
                    .map(Integer::parseInt).sorted().toList();
        }
    }

    /** Complete records of a segment with their offsets; a partial last line is ignored. */
    Map<String, long[]> scan(int number) throws IOException {
        Map<String, long[]> entries = new HashMap<>();
        byte[] bytes = Files.readAllBytes(segment(number));
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

    /** A segment's whole lines, in the order written; each is parsed only when a reader asks. */
    List<SegmentLine> lines(int number) throws IOException {
        List<SegmentLine> out = new ArrayList<>();
        byte[] bytes = Files.readAllBytes(segment(number));
        int start = 0;
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == '\n') {
                out.add(new SegmentLine(bytes, start, i));
                start = i + 1;
            }
        }
        return out;
    }

    /** The record at {@code location} ({offset, length}) of a segment. */
    Incident read(int number, long[] location) throws IOException {
        try (FileChannel channel = FileChannel.open(segment(number), StandardOpenOption.READ)) {
            ByteBuffer buffer = ByteBuffer.allocate((int) location[1]);
            channel.read(buffer, location[0]);
            return IncidentJson.fromJson(Json.mapper().readTree(buffer.array()));
        }
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

    /** The time of a segment's last whole record, read from the head of that line; empty if it has none. */
    static Optional<Instant> newestTime(Path segment) throws IOException {
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

    /** The end of the last whole line before {@code size} (just past its newline), read backwards a block at a time. */
    static long lastCompleteLineEnd(FileChannel channel, long size) throws IOException {
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
}
