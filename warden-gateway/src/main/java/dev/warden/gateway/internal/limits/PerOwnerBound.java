package dev.warden.gateway.internal.limits;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Entries remembered per owner, within bounds one owner cannot use up for the others: past
 * {@code perOwner} an owner's own oldest entry is forgotten, past {@code all} (which one owner
 * cannot fill alone) the oldest of anyone's. An owner's entries are found without scanning
 * everyone's. A key given twice is nobody's: the second entry is refused and the first forgotten
 * (a task id issued again on one connection, by a restarted server say, no longer names the first
 * task), so neither owner is ever handed the other's.
 */
public final class PerOwnerBound<O, K, V> {

    private record Held<O, V>(O owner, V value) {
    }

    private final int perOwner;
    private final int all;
    private final LinkedHashMap<K, Held<O, V>> entries = new LinkedHashMap<>();
    private final Map<O, LinkedHashMap<K, V>> byOwner = new HashMap<>();

    public PerOwnerBound(int perOwner, int all) {
        if (perOwner < 1 || all <= perOwner) {
            throw new IllegalArgumentException("bounds need 0 < perOwner < all, got " + perOwner + " and " + all);
        }
        this.perOwner = perOwner;
        this.all = all;
    }

    /** Remembers {@code value} under {@code key}; false if the key was taken (then it is nobody's any more). */
    public synchronized boolean putIfAbsent(O owner, K key, V value) {
        if (entries.containsKey(key)) {
            remove(key);
            return false;
        }
        entries.put(key, new Held<>(owner, value));
        LinkedHashMap<K, V> own = byOwner.computeIfAbsent(owner, o -> new LinkedHashMap<>());
        own.put(key, value);
        if (own.size() > perOwner) {
            remove(own.keySet().iterator().next());
        }
        while (entries.size() > all) {
            remove(entries.keySet().iterator().next());
        }
        return true;
    }

    public synchronized Optional<V> get(K key) {
        return Optional.ofNullable(entries.get(key)).map(Held::value);
    }

    /** The owner's entries, oldest first. */
    public synchronized List<V> of(O owner) {
        LinkedHashMap<K, V> own = byOwner.get(owner);
        return own == null ? List.of() : List.copyOf(own.values());
    }

    private void remove(K key) {
        Held<O, V> held = entries.remove(key);
        if (held != null) {
            LinkedHashMap<K, V> own = byOwner.get(held.owner());
            own.remove(key);
            if (own.isEmpty()) {
                byOwner.remove(held.owner());
            }
        }
    }
}
