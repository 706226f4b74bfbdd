package dev.warden.core.segment;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The retention both segment stores apply: whole segments, oldest first, never the active one. */
class SegmentLedgerTest {

    static final Retention RETENTION = new Retention(Retention.MIN_BYTES * 2, Duration.ofDays(1));

    final SegmentLedger<Integer> ledger = new SegmentLedger<>();
    final List<Integer> removed = new ArrayList<>();

    @Test
    void expiredSegmentsGoOldestFirstThenAsManyAsItTakesForTheIncomingBytesToFit() throws Exception {
        for (int i = 1; i <= 5; i++) {
            ledger.put(i, Retention.MIN_BYTES / 2);
        }
        ledger.put(3, Retention.MIN_BYTES / 4); // a size set again replaces the old one in the total
        assertThat(ledger.total()).isEqualTo(Retention.MIN_BYTES * 9 / 4);
        ledger.retain(Retention.MIN_BYTES / 2, Optional.of(5), n -> n == 1, RETENTION, removed::add);
        assertThat(removed).containsExactly(1, 2);
        assertThat(ledger.total()).isEqualTo(Retention.MIN_BYTES * 5 / 4);
        assertThat(ledger.size(1)).isZero();
        assertThat(ledger.floor(2)).isEmpty();
        assertThat(ledger.floor(4)).contains(4);
    }

    @Test
    void theActiveSegmentStaysAndNothingNewerThanItGoes() throws Exception {
        ledger.put(1, Retention.MIN_BYTES);
        ledger.put(2, Retention.MIN_BYTES);
        ledger.retain(Retention.MIN_BYTES * 10, Optional.of(1), n -> true, RETENTION, removed::add);
        assertThat(removed).isEmpty();
        ledger.retain(Retention.MIN_BYTES * 10, Optional.empty(), n -> false, RETENTION, removed::add);
        assertThat(removed).containsExactly(1, 2);
        assertThat(ledger.total()).isZero();
    }
}
