package dev.warden.console.feed;

import dev.warden.gateway.auditlog.AuditRecord;
import dev.warden.gateway.auditlog.AuditSink;
import java.time.Clock;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Per (upstream, tool), the last hour of {@code tools/call} minute by minute: calls by outcome
 * (OK, cancelled, or the Warden code) and latency, fed with the gateway's audit records (one per
 * request, dated by the gateway's clock). In memory only, bounded: at most {@code maxTools}
 * series; a new tool beyond them takes the place of the one called least recently. Never throws,
 * so teeing the audit sink into it cannot fail a request.
 */
public final class ToolStats implements AuditSink {

    public static final int DEFAULT_MAX_TOOLS = 500;

    private record Key(String upstream, String tool) {
    }

    private final Clock clock;
    private final int maxTools;
    private final Map<Key, ToolSeries> series = new ConcurrentHashMap<>();
    /** Held only to add a series (and evict one): calls of known tools take no shared lock. */
    private final ReentrantLock admitting = new ReentrantLock();

    public ToolStats(Clock clock, int maxTools) {
        this.clock = Objects.requireNonNull(clock, "clock");
        if (maxTools < 1) {
            throw new IllegalArgumentException("maxTools must be at least 1, got " + maxTools);
        }
        this.maxTools = maxTools;
    }

    public ToolStats(Clock clock) {
        this(clock, DEFAULT_MAX_TOOLS);
    }

    @Override
    public void record(AuditRecord r) {
        if (!"tools/call".equals(r.method()) || r.tool().isEmpty()) {
            return;
        }
        Key key = new Key(r.upstream().orElse("-"), r.tool().get());
        ToolSeries s = series.get(key);
        if (s == null) {
            s = admit(key);
        }
        s.add(minuteOf(r.time()), Outcomes.of(r), r.duration());
    }

    private ToolSeries admit(Key key) {
        admitting.lock();
        try {
            ToolSeries s = series.get(key);
            if (s != null) {
                return s;
            }
            while (series.size() >= maxTools) {
                Optional<Key> stalest = series.entrySet().stream()
                        .min(Comparator.comparingLong(e -> e.getValue().lastMinute())).map(Map.Entry::getKey);
                stalest.ifPresent(series::remove);
            }
            s = new ToolSeries();
            series.put(key, s);
            return s;
        } finally {
            admitting.unlock();
        }
    }

    /** Every tool called in the last hour (by the clock), by upstream and tool name. */
    public List<ToolWindow> lastHour() {
        long now = minuteOf(clock.instant());
        return series.entrySet().stream()
                .map(e -> e.getValue().window(e.getKey().upstream(), e.getKey().tool(), now))
                .filter(w -> w.total().calls() > 0)
                .sorted(Comparator.comparing(ToolWindow::upstream).thenComparing(ToolWindow::tool))
                .toList();
    }

    /** How many series are kept now (at most maxTools). */
    public int size() {
        return series.size();
    }

    private static long minuteOf(Instant t) {
        return Math.floorDiv(t.getEpochSecond(), 60);
    }
}
