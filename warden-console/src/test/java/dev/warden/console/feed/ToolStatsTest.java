package dev.warden.console.feed;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.gateway.auditlog.AuditRecord;
import dev.warden.gateway.auditlog.AuditRecord.Outcome;
import dev.warden.testkit.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ToolStatsTest {

    private static final Instant T0 = Instant.parse("2026-11-29T08:00:00Z");
    private final MutableClock clock = new MutableClock(T0);

    private AuditRecord call(String upstream, String tool, Outcome outcome, Optional<String> code, long ms) {
        return new AuditRecord(clock.instant(), "client#1", Optional.of(upstream), "tools/call", Optional.of(tool),
                Duration.ofMillis(ms), outcome, code, Optional.empty());
    }

    @Test
    void countsCallsByOutcomeAndCodeMinuteByMinute() {
        ToolStats stats = new ToolStats(clock);
        stats.record(call("crm", "lookup", Outcome.OK, Optional.empty(), 3));
        stats.record(call("crm", "lookup", Outcome.OK, Optional.empty(), 40));
        stats.record(call("crm", "lookup", Outcome.TOOL_ERROR, Optional.of("VALIDATION_ERROR"), 2));
        clock.advance(Duration.ofMinutes(1));
        stats.record(call("crm", "lookup", Outcome.ERROR, Optional.of("UPSTREAM_ERROR"), 900));
        stats.record(call("crm", "lookup", Outcome.CANCELLED, Optional.empty(), 5));

        List<ToolWindow> hour = stats.lastHour();

        assertThat(hour).hasSize(1);
        ToolWindow w = hour.get(0);
        assertThat(w.upstream()).isEqualTo("crm");
        assertThat(w.tool()).isEqualTo("lookup");
        assertThat(w.minutes()).hasSize(60);
        MinuteStats last = w.minutes().get(59);
        MinuteStats before = w.minutes().get(58);
        assertThat(before.start()).isEqualTo(T0);
        assertThat(before.calls()).isEqualTo(3);
        assertThat(before.errors()).isEqualTo(1);
        assertThat(before.byOutcome()).containsEntry("OK", 2L).containsEntry("VALIDATION_ERROR", 1L);
        assertThat(last.byOutcome()).containsEntry("UPSTREAM_ERROR", 1L).containsEntry("CANCELLED", 1L);
        assertThat(last.errors()).as("a cancelled call is not an error").isEqualTo(1);
        assertThat(w.total().calls()).isEqualTo(5);
        assertThat(w.total().errors()).isEqualTo(2);
        assertThat(w.total().errorRate()).isEqualTo(0.4);
    }

    @Test
    void latencyQuantilesAreTheBoundsOfTheirBuckets() {
        ToolStats stats = new ToolStats(clock);
        for (int i = 0; i < 19; i++) {
            stats.record(call("crm", "lookup", Outcome.OK, Optional.empty(), 20));
        }
        stats.record(call("crm", "lookup", Outcome.OK, Optional.empty(), 2_000));

        MinuteStats minute = stats.lastHour().get(0).minutes().get(59);

        assertThat(minute.p50()).contains(Duration.ofMillis(25));
        assertThat(minute.p95()).contains(Duration.ofMillis(25));
        stats.record(call("crm", "lookup", Outcome.OK, Optional.empty(), 2_000));
        assertThat(stats.lastHour().get(0).total().p95()).contains(Duration.ofMillis(2_500));
    }

    @Test
    void theWindowIsTheLastHourByTheClock() {
        ToolStats stats = new ToolStats(clock);
        stats.record(call("crm", "old", Outcome.OK, Optional.empty(), 1));
        clock.advance(Duration.ofMinutes(59));
        stats.record(call("crm", "new", Outcome.OK, Optional.empty(), 1));

        assertThat(stats.lastHour()).extracting(ToolWindow::tool).containsExactly("new", "old");
        clock.advance(Duration.ofMinutes(1));
        assertThat(stats.lastHour()).extracting(ToolWindow::tool).containsExactly("new");

        // a minute's slot is reused an hour later: the old count is gone, not added to
        stats.record(call("crm", "new", Outcome.OK, Optional.empty(), 1));
        clock.advance(Duration.ofMinutes(60));
        stats.record(call("crm", "new", Outcome.OK, Optional.empty(), 1));
        assertThat(stats.lastHour().get(0).total().calls()).isEqualTo(1);
    }

    @Test
    void onlyToolCallsAreCounted() {
        ToolStats stats = new ToolStats(clock);
        stats.record(new AuditRecord(clock.instant(), "client#1", Optional.of("crm"), "tools/list", Optional.empty(),
                Duration.ofMillis(1), Outcome.OK, Optional.empty(), Optional.empty()));

        assertThat(stats.lastHour()).isEmpty();
        assertThat(stats.size()).isZero();
    }

    @Test
    void memoryIsBoundedByEvictingTheToolCalledLeastRecently() {
        ToolStats stats = new ToolStats(clock, 3);
        stats.record(call("crm", "a", Outcome.OK, Optional.empty(), 1));
        clock.advance(Duration.ofMinutes(1));
        stats.record(call("crm", "b", Outcome.OK, Optional.empty(), 1));
        stats.record(call("crm", "c", Outcome.OK, Optional.empty(), 1));
        clock.advance(Duration.ofMinutes(1));
        stats.record(call("crm", "a", Outcome.OK, Optional.empty(), 1));
        stats.record(call("crm", "d", Outcome.OK, Optional.empty(), 1));

        assertThat(stats.size()).isEqualTo(3);
        assertThat(stats.lastHour()).extracting(ToolWindow::tool).hasSize(3).contains("a", "d");
    }

    @Test
    void outcomesPerMinuteAreBounded() {
        ToolStats stats = new ToolStats(clock);
        for (int i = 0; i < 40; i++) {
            stats.record(call("crm", "t", Outcome.TOOL_ERROR, Optional.of("CODE_" + i), 1));
        }

        MinuteStats minute = stats.lastHour().get(0).minutes().get(59);

        assertThat(minute.byOutcome()).hasSize(Outcomes.MAX_PER_MINUTE + 1).containsKey(Outcomes.OTHER);
        assertThat(minute.calls()).isEqualTo(40);
    }

    @Test
    void theTeeFeedsTheConsoleEvenWhenTheConfiguredSinkFails() {
        ConsoleFeed feed = ConsoleFeed.of(clock);
        AuditRecord r = call("crm", "lookup", Outcome.OK, Optional.empty(), 1);

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> feed.tee(x -> {
            throw new java.io.IOException("disk full");
        }).record(r)).isInstanceOf(java.io.IOException.class);

        assertThat(feed.tail().newestFirst()).containsExactly(r);
        assertThat(feed.stats().lastHour()).hasSize(1);
    }

    @Test
    void theAuditTailKeepsTheLastRecordsNewestFirst() {
        AuditTail tail = new AuditTail(2);
        AuditRecord a = call("crm", "a", Outcome.OK, Optional.empty(), 1);
        AuditRecord b = call("crm", "b", Outcome.OK, Optional.empty(), 1);
        AuditRecord c = call("crm", "c", Outcome.OK, Optional.empty(), 1);
        tail.record(a);
        tail.record(b);
        tail.record(c);

        assertThat(tail.newestFirst()).containsExactly(c, b);
    }
}
