package dev.warden.e2e.attack;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import tools.jackson.databind.JsonNode;

/**
 * A client that only wants its echo: one session declaring nothing, one call at a time. It is
 * served when each call comes back as a result (not an error, not a refusal) within the guard.
 */
final class Honest {

    /** A call that takes longer than this is a stall: the suite's finding 3 was a 30 s one. */
    static final Duration GUARD = Duration.ofSeconds(20);

    private final McpHttp http;
    private final String tool;
    private final String session;
    private final AtomicLong ids = new AtomicLong(1);

    Honest(McpHttp http, String tool) throws Exception {
        this.http = http;
        this.tool = tool;
        this.session = http.initialize("{}", GUARD);
    }

    /** Closes its connections: the gateway it was served by stops next. */
    void close() {
        http.close();
    }

    /** What the first call that was not served got instead (for the table's notes). */
    final AtomicReference<String> firstFailure = new AtomicReference<>();
    /** What the last call that was not served got instead. */
    final AtomicReference<String> lastFailure = new AtomicReference<>();

    /** One echo: its latency in nanoseconds, or empty when it was not served. */
    Optional<Long> echo() {
        long id = ids.getAndIncrement();
        long start = System.nanoTime();
        try {
            McpHttp.Reply reply = http.post(Optional.of(session),
                    McpHttp.call(id, tool, "{\"message\":\"honest " + id + "\"}"), GUARD);
            Optional<JsonNode> answer = reply.answer(id);
            boolean served = reply.answersTo(id) == 1 && answer.isPresent() && answer.get().has("result")
                    && !answer.get().at("/result/isError").asBoolean(false);
            if (!served) {
                String got = answer.map(JsonNode::toString).orElse("HTTP " + reply.status());
                failed(got.length() > 300 ? got.substring(0, 300) + "…" : got);
            }
            return served ? Optional.of(System.nanoTime() - start) : Optional.empty();
        } catch (Exception e) {
            failed(e.toString());
            return Optional.empty();
        }
    }

    private void failed(String what) {
        firstFailure.compareAndSet(null, what);
        lastFailure.set(what);
    }

    /** {@code n} echoes in a row; the latencies of those served and how many were not. */
    Sample sample(int n) {
        Sample sample = new Sample();
        for (int i = 0; i < n; i++) {
            sample.add(echo());
        }
        return sample;
    }

    static final class Sample {
        final List<Long> nanos = Collections.synchronizedList(new ArrayList<>());
        final AtomicInteger unserved = new AtomicInteger();

        void add(Optional<Long> latency) {
            latency.ifPresentOrElse(nanos::add, unserved::incrementAndGet);
        }

        /** The median latency in milliseconds (NaN when nothing was served). */
        double p50Millis() {
            List<Long> sorted;
            synchronized (nanos) {
                sorted = new ArrayList<>(nanos);
            }
            if (sorted.isEmpty()) {
                return Double.NaN;
            }
            Collections.sort(sorted);
            return sorted.get(sorted.size() / 2) / 1e6;
        }

        int calls() {
            return nanos.size() + unserved.get();
        }
    }
}
