package dev.warden.core.error;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;

/**
 * Failures of one kind within a window share one ref and one incident, so a flood of the same
 * refusal is one event in the incident store, not thousands (each request may still be audited).
 *
 * @param <K> what makes two failures "of one kind"; built from trusted values, so the kinds are few
 */
public final class RefWindow<K> {

    private record Recent(Ref ref, Instant at) {
    }

    private final Clock clock;
    private final Duration window;
    private final int maxKinds;
    private final ConcurrentHashMap<K, Recent> recent = new ConcurrentHashMap<>();

    public RefWindow(Clock clock, Duration window, int maxKinds) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.window = Objects.requireNonNull(window, "window");
        if (window.isNegative() || window.isZero()) {
            throw new IllegalArgumentException("window must be positive, got " + window);
        }
        if (maxKinds < 1) {
            throw new IllegalArgumentException("maxKinds must be at least 1, got " + maxKinds);
        }
        this.maxKinds = maxKinds;
    }

    /**
     * The ref for a failure of {@code kind} now: the one of the last failure of that kind if it is
     * within the window, else a fresh one, for which {@code record} is called once (with the ref and
     * the time) to write its incident.
     */
    public Ref refFor(K kind, BiConsumer<Ref, Instant> record) {
        Objects.requireNonNull(kind, "kind");
        Instant now = clock.instant();
        if (recent.size() > maxKinds) {
            recent.clear(); // bounds the table; at worst a kind gets one more incident
        }
        Recent[] fresh = new Recent[1];
        Recent current = recent.compute(kind, (k, old) -> {
            if (old != null && now.isBefore(old.at().plus(window)) && !now.isBefore(old.at())) {
                return old;
            }
            fresh[0] = new Recent(Ref.random(), now);
            return fresh[0];
        });
        if (fresh[0] != null) {
            record.accept(fresh[0].ref(), now);
        }
        return current.ref();
    }
}
