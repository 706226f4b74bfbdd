package dev.warden.store.redis.internal;

import dev.warden.core.cluster.ReplicaBus;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.Optional;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The messages that reach one replica, handed to their topics' handlers one at a time, in arrival
 * order, on a virtual thread of its own: never on Lettuce's event loop, which a blocking handler
 * would stall for every connection of the client.
 */
public final class BusInbox {

    private static final System.Logger LOG = System.getLogger("dev.warden.store.redis");
    private static final Runnable STOP = () -> { };

    private final String self;
    private final Envelopes envelopes;
    private final Map<String, ReplicaBus.Handler> handlers = new ConcurrentHashMap<>();
    private final LinkedBlockingQueue<Runnable> queue = new LinkedBlockingQueue<>();
    private final AtomicLong refused = new AtomicLong();
    private final Thread drainer;

    public BusInbox(String self, Envelopes envelopes) {
        this.self = self;
        this.envelopes = envelopes;
        this.drainer = Thread.ofVirtual().name("warden-replica-bus-" + self).start(this::drain);
    }

    public void on(String topic, ReplicaBus.Handler handler) {
        handlers.put(topic, Objects.requireNonNull(handler, "handler"));
    }

    /**
     * A message off a channel (called on Lettuce's thread: only verifies and queues); {@code toAll}
     * when it came on the channel of every replica, where this replica's own are skipped. One not
     * signed with the replicas' key, out of its time, played again, or addressed to another
     * replica than the channel's is refused (counted, logged at DEBUG without its content).
     */
    public void arrived(String text, boolean toAll) {
        Optional<Envelopes.Message> opened = envelopes.open(text);
        if (opened.isEmpty() || !opened.get().to().equals(toAll ? Envelopes.EVERYONE : self)) {
            refused.incrementAndGet();
            LOG.log(System.Logger.Level.DEBUG, "a message on the replicas' bus was refused: unsigned, badly signed, "
                    + "out of its time, played again or misaddressed");
            return;
        }
        Envelopes.Message message = opened.get();
        if (toAll && message.from().equals(self)) {
            return;
        }
        queue.add(() -> {
            ReplicaBus.Handler handler = handlers.get(message.topic());
            if (handler != null) {
                handler.accept(message.from(), message.body());
            }
        });
    }

    /** How many messages were refused so far (see {@link #arrived}). */
    public long refused() {
        return refused.get();
    }

    private void drain() {
        while (true) {
            Runnable next;
            try {
                next = queue.take();
            } catch (InterruptedException e) {
                return;
            }
            if (next == STOP) {
                return;
            }
            try {
                next.run();
            } catch (RuntimeException e) {
                // A handler's failure is its own; the next message still goes through.
                LOG.log(System.Logger.Level.WARNING, "a replica-bus handler failed (" + e.getClass().getSimpleName() + ")");
            }
        }
    }

    /** No more handling: what is queued after the messages already in is dropped. */
    public void close() {
        queue.add(STOP);
    }
}
