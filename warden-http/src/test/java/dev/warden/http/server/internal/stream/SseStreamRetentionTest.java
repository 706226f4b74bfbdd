package dev.warden.http.server.internal.stream;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** What streams keep for resumption, for clients that may never come back, is bounded. */
class SseStreamRetentionTest {

    private static final String FRAME = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"data\":\""
            + "y".repeat(1000) + "\"}}";

    @Test
    void aStreamKeepsAtMostItsBoundInEventsAndBytes() {
        SseStream.SessionBudget budget = new SseStream.SessionBudget(1 << 30);
        SseStream stream = new SseStream("s", new SseStream.Buffer(1024, 8 * 1024), budget, () -> { }, () -> { }, () -> { });

        for (int i = 0; i < 10_000; i++) {
            stream.send(FRAME);
        }

        assertThat(budget.used()).isLessThanOrEqualTo(8 * 1024);
    }

    @Test
    void theStreamsOfOneSessionShareItsBudget() {
        SseStream.SessionBudget budget = new SseStream.SessionBudget(16 * 1024);
        SseStream first = new SseStream("a", new SseStream.Buffer(1024, 1 << 20), budget, () -> { }, () -> { }, () -> { });
        SseStream second = new SseStream("b", new SseStream.Buffer(1024, 1 << 20), budget, () -> { }, () -> { }, () -> { });

        for (int i = 0; i < 1_000; i++) {
            first.send(FRAME);
            second.send(FRAME);
        }

        // Each stream keeps its latest event at least, so the bound may be passed by one event per stream.
        assertThat(budget.used()).isLessThanOrEqualTo(16 * 1024 + 2 * 1100);
    }

    @Test
    void anEndedStreamThatIsForgottenGivesItsBytesBack() {
        SseStream.SessionBudget budget = new SseStream.SessionBudget(1 << 20);
        SseStream stream = new SseStream("s", new SseStream.Buffer(1024, 1 << 20), budget, () -> { }, () -> { }, () -> { });
        stream.send(FRAME);
        stream.end();

        stream.forget();

        assertThat(budget.used()).isZero();
    }
}
