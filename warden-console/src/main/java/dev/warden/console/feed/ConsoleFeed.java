package dev.warden.console.feed;

import dev.warden.gateway.auditlog.AuditRecord;
import dev.warden.gateway.auditlog.AuditSink;
import java.time.Clock;
import java.util.Objects;

/**
 * What the console learns from the gateway's audit records: the per-tool stats and the audit tail.
 * {@link #tee} puts it beside the configured sink, so the gateway's request path is untouched.
 */
public final class ConsoleFeed implements AuditSink {

    private final ToolStats stats;
    private final AuditTail tail;

    public ConsoleFeed(ToolStats stats, AuditTail tail) {
        this.stats = Objects.requireNonNull(stats, "stats");
        this.tail = Objects.requireNonNull(tail, "tail");
    }

    /** The default bounds, dated by {@code clock} (the gateway's). */
    public static ConsoleFeed of(Clock clock) {
        return new ConsoleFeed(new ToolStats(clock), new AuditTail());
    }

    public ToolStats stats() {
        return stats;
    }

    public AuditTail tail() {
        return tail;
    }

    @Override
    public void record(AuditRecord r) {
        stats.record(r);
        tail.record(r);
    }

    /**
     * {@code configured} first, then this feed, whatever {@code configured} did: its failure is
     * still the gateway's to see (fail-closed refuses on it), and the feed itself never fails.
     */
    public AuditSink tee(AuditSink configured) {
        Objects.requireNonNull(configured, "configured");
        return r -> {
            try {
                configured.record(r);
            } finally {
                record(r);
            }
        };
    }
}
