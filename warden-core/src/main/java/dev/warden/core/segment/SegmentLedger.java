package dev.warden.core.segment;

import java.io.IOException;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * The segments of a store as retention sees them: each one's bytes on disk, ordered oldest first
 * by the store's own key, and their total. Retention works on these sizes, kept in memory, so a
 * write does not list the directory. Not thread-safe: its store calls it under its lock.
 *
 * @param <K> how the store names a segment, ordered oldest first
 */
public final class SegmentLedger<K extends Comparable<K>> {

    /** Deletes one segment's files. */
    @FunctionalInterface
    public interface Removal<K> {
        void remove(K segment) throws IOException;
    }

    private final TreeMap<K, Long> sizes = new TreeMap<>();
    private long total;

    /** Empty: the store puts what it finds on disk. */
    public SegmentLedger() {
    }

    /** Sets {@code segment}'s size, adding it if new. */
    public void put(K segment, long bytes) {
        Long before = sizes.put(segment, bytes);
        total += bytes - (before == null ? 0 : before);
    }

    public long size(K segment) {
        return sizes.getOrDefault(segment, 0L);
    }

    public long total() {
        return total;
    }

    /** The newest segment at or before {@code key}. */
    public Optional<K> floor(K key) {
        return Optional.ofNullable(sizes.floorKey(key));
    }

    public void clear() {
        sizes.clear();
        total = 0;
    }

    /**
     * Removes whole segments, oldest first, stopping at {@code active} (never removed): those
     * {@code expired} says are past the maximum age, then as many as it takes for {@code incoming}
     * more bytes to fit in {@code retention}'s size.
     */
    public void retain(long incoming, Optional<K> active, Predicate<K> expired, Retention retention, Removal<K> removal)
            throws IOException {
        while (removable(active) && expired.test(sizes.firstKey())) {
            remove(sizes.firstKey(), removal);
        }
        while (removable(active) && total + incoming > retention.maxBytes()) {
            remove(sizes.firstKey(), removal);
        }
    }

    private boolean removable(Optional<K> active) {
        return !sizes.isEmpty() && !active.filter(sizes.firstKey()::equals).isPresent();
    }

    private void remove(K segment, Removal<K> removal) throws IOException {
        total -= sizes.remove(segment);
        removal.remove(segment);
    }
}
