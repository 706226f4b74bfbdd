package dev.warden.store.redis.internal;

import dev.warden.core.cluster.ReplicaBus;
import dev.warden.core.json.Json;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The messages that reach one replica, handed to their topics' handlers one at a time, in arrival
 * order, on a virtual thread of its own: never on Lettuce's event loop, which a blocking handler
 * would stall for every connection of the client.
 */
public final class BusInbox {

    private static final System.Logger LOG = System.getLogger("dev.warden.store.redis");
    private static final Runnable STOP = () -> { };

    private final String self;
    private final Map<String, ReplicaBus.Handler> handlers = new ConcurrentHashMap<>();
    private final LinkedBlockingQueue<Runnable> queue = new LinkedBlockingQueue<>();
    private final Thread drainer;

    public BusInbox(String self) {
        this.self = self;
        this.drainer = Thread.ofVirtual().name("warden-replica-bus-" + self).start(this::drain);
    }

    /** One message as it travels: who sent it, on which topic, and its body. */
    public static String envelope(String from, String topic, String body) {
        ObjectNode message = Json.object();
        message.put("f", from);
        message.put("t", topic);
        message.put("b", body);
        return Json.write(message);
    }

    public void on(String topic, ReplicaBus.Handler handler) {
        handlers.put(topic, Objects.requireNonNull(handler, "handler"));
    }

    /**
     * A message off a channel (called on Lettuce's thread: only parses and queues); {@code toAll}
     * when it came on the channel of every replica, where this replica's own are skipped.
     */
    public void arrived(String text, boolean toAll) {
        JsonNode message;
        try {
            message = Json.mapper().readTree(text);
        } catch (RuntimeException e) {
            return; // not one of ours
        }
        String from = message.path("f").asString("");
        String topic = message.path("t").asString("");
        String body = message.path("b").asString("");
        if (from.isEmpty() || topic.isEmpty() || (toAll && from.equals(self))) {
            return;
        }
        queue.add(() -> {
            ReplicaBus.Handler handler = handlers.get(topic);
            if (handler != null) {
                handler.accept(from, body);
            }
        });
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
