package dev.warden.e2e.attack;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/** What an attack counted: requests that needed an answer, those answered exactly once, what went wrong. */
final class Tally {

    private static final int KEPT = 4;

    final AtomicLong expected = new AtomicLong();
    final AtomicLong received = new AtomicLong();
    private final AtomicLong problemCount = new AtomicLong();
    private final List<String> problems = new CopyOnWriteArrayList<>();
    private final List<String> notes = new CopyOnWriteArrayList<>();
    private volatile boolean quiet;

    /** One request of id {@code id} whose reply was {@code reply}: it needs exactly one answer with that id. */
    void answeredOnce(McpHttp.Reply reply, Object id) {
        expected.incrementAndGet();
        long answers = reply.answersTo(id);
        if (answers == 1) {
            received.incrementAndGet();
        } else {
            problem("request " + id + " got " + answers + " answers (HTTP " + reply.status() + ")");
        }
    }

    /**
     * A request the gateway may not be able to read the id of (malformed, too deep, not UTF-8): its
     * reply must hold exactly one response, with its id or with null.
     */
    void answeredOnceByIdOrNull(McpHttp.Reply reply, Object id) {
        expected.incrementAndGet();
        long responses = reply.messages().stream().filter(m -> !m.has("method")).count();
        boolean nullId = reply.messages().stream().anyMatch(m -> !m.has("method") && m.path("id").isNull());
        if (responses == 1 && (reply.answersTo(id) == 1 || nullId)) {
            received.incrementAndGet();
        } else {
            problem("request " + id + " got " + responses + " responses (HTTP " + reply.status() + ")");
        }
    }

    /** A request whose POST never came back (a hang the guard cut, or a connection error). */
    void unanswered(Object id, Exception e) {
        expected.incrementAndGet();
        problem("request " + id + " unanswered: " + e.getClass().getSimpleName());
    }

    /** Counts {@code n} more requests answered as they should be (counted by other means, the upstream's own). */
    void counted(long expectedCount, long receivedCount) {
        expected.addAndGet(expectedCount);
        received.addAndGet(receivedCount);
    }

    void problem(String text) {
        if (problemCount.incrementAndGet() <= KEPT) {
            problems.add(text);
        }
    }

    /** Kept unless {@link #quiet}. */
    void note(String text) {
        if (!quiet) {
            notes.add(text);
        }
    }

    void noteAlways(String text) {
        notes.add(text);
    }

    /** Notes from now on are not kept (a repeated attack's later rounds); counts and problems are. */
    void quiet() {
        quiet = true;
    }

    /** Notes are kept again. */
    void loud() {
        quiet = false;
    }

    List<String> problems() {
        long more = problemCount.get() - problems.size();
        if (more > 0) {
            List<String> all = new java.util.ArrayList<>(problems);
            all.add("and " + more + " more");
            return all;
        }
        return List.copyOf(problems);
    }

    String notes() {
        return String.join("; ", notes);
    }
}
