package dev.warden.http.server;

import dev.warden.core.cluster.ReplicaBus;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A replica's bus for tests that place a step between two of its moves: what it reads first can be
 * followed by something done elsewhere (another replica changing the session), and how many
 * messages of each topic it has handled is counted.
 */
final class WatchedBus implements ReplicaBus {

    /** Something done after a read, before its answer is returned. */
    interface Step {
        void run() throws Exception;
    }

    private final ReplicaBus bus;
    private final AtomicReference<Step> afterNextRead = new AtomicReference<>();
    private final Map<String, AtomicInteger> handled = new ConcurrentHashMap<>();
    private final AtomicInteger readsBefore = new AtomicInteger();
    private final Map<String, Step> afterPut = new ConcurrentHashMap<>();

    WatchedBus(ReplicaBus bus) {
        this.bus = bus;
    }

    /** {@code step} runs once, after the next read and before it returns what it read before the step. */
    void afterNextRead(Step step) {
        afterRead(1, step);
    }

    /** {@code step} runs once, after the {@code nth} read from now (see {@link #afterNextRead}). */
    void afterRead(int nth, Step step) {
        readsBefore.set(nth - 1);
        afterNextRead.set(step);
    }

    /** {@code step} runs once, after the next write of {@code field} to a record and before that write returns. */
    void afterNextPut(String field, Step step) {
        afterPut.put(field, step);
    }

    /** How many messages of {@code topic} this replica's handlers have handled. */
    int handled(String topic) {
        return handled.computeIfAbsent(topic, t -> new AtomicInteger()).get();
    }

    @Override
    public Optional<Map<String, String>> read(String key) {
        Optional<Map<String, String>> read = bus.read(key);
        run(readsBefore.getAndDecrement() > 0 ? null : afterNextRead.getAndSet(null));
        return read;
    }

    private static void run(Step step) {
        if (step != null) {
            try {
                step.run();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
    }

    @Override
    public void on(String topic, Handler handler) {
        AtomicInteger count = handled.computeIfAbsent(topic, t -> new AtomicInteger());
        bus.on(topic, (from, body) -> {
            handler.accept(from, body);
            count.incrementAndGet();
        });
    }

    @Override
    public String self() {
        return bus.self();
    }

    @Override
    public boolean send(String to, String topic, String body) {
        return bus.send(to, topic, body);
    }

    @Override
    public boolean broadcast(String topic, String body) {
        return bus.broadcast(topic, body);
    }

    @Override
    public boolean alive(String id) {
        return bus.alive(id);
    }

    @Override
    public boolean put(String key, String field, String value, Duration ttl) {
        boolean put = bus.put(key, field, value, ttl);
        run(afterPut.remove(field));
        return put;
    }

    @Override
    public boolean remove(String key, String field) {
        return bus.remove(key, field);
    }

    @Override
    public void close() {
        bus.close();
    }
}
