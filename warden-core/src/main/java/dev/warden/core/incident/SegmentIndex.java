package dev.warden.core.incident;

import dev.warden.core.segment.OwnerOnly;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The index of a sealed segment: fixed-width entries {@code ref offset length}, sorted by ref, so a
 * lookup is a binary search over the file. Written to a temporary file and renamed into place, so
 * an index is either whole or absent (a crash leaves the temporary file, which recovery deletes).
 */
final class SegmentIndex {

    /** What a temporary index file's name ends with. */
    static final String TEMPORARY_SUFFIX = ".tmp";
    /** {@code ref_xxxxxxxxxxxxxxxx} (20) + space + 12-digit offset + space + 8-digit length + newline. */
    private static final int ENTRY = 20 + 1 + 12 + 1 + 8 + 1;

    private SegmentIndex() {
    }

    /** Writes {@code entries} (ref to {offset, length}) as the index at {@code index}, replacing any. */
    static void write(Path index, Map<String, long[]> entries) throws IOException {
        List<Map.Entry<String, long[]>> sorted = new ArrayList<>(entries.entrySet());
        sorted.sort(Map.Entry.comparingByKey());
        StringBuilder sb = new StringBuilder(sorted.size() * ENTRY);
        for (Map.Entry<String, long[]> e : sorted) {
            sb.append(e.getKey()).append(' ');
            padded(sb, e.getValue()[0], 12).append(' ');
            padded(sb, e.getValue()[1], 8).append('\n');
        }
        Path tmp = index.resolveSibling(index.getFileName() + TEMPORARY_SUFFIX);
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
            Files.move(tmp, index, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, index, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /** {@code value} zero-padded to {@code width} digits, as {@code %0<width>d} (a rotation writes thousands). */
    private static StringBuilder padded(StringBuilder sb, long value, int width) {
        String digits = Long.toString(value);
        for (int i = digits.length(); i < width; i++) {
            sb.append('0');
        }
        return sb.append(digits);
    }

    /** Where the record of {@code ref} is ({offset, length}), by binary search; empty if not there. */
    static Optional<long[]> search(Path index, String ref) throws IOException {
        try (RandomAccessFile file = new RandomAccessFile(index.toFile(), "r")) {
            long count = file.length() / ENTRY;
            long lo = 0;
            long hi = count - 1;
            byte[] entry = new byte[ENTRY];
            while (lo <= hi) {
                long mid = (lo + hi) >>> 1;
                file.seek(mid * ENTRY);
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
}
