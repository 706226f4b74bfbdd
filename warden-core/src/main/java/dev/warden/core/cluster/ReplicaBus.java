package dev.warden.core.cluster;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The replicas of one deployment, as seen from one of them. Messages are small (a JSON-RPC frame,
 * a session id and a field), delivered at most once and in order per sender and topic; one sent to
 * a replica that is down is lost, so a sender that needs an answer asks with a deadline
 * ({@link ReplicaCalls}). Nothing here throws for want of the store behind it: a send says whether
 * it went, a read is empty when the store could not answer, and callers then act as one replica.
 *
 * <p>Ids and topics are short words ({@link #WORD}): they travel in channel names, JSON-RPC ids
 * and event ids.
 */
public interface ReplicaBus extends AutoCloseable {

    /** What an id or a topic may be: 1–32 of {@code [A-Za-z0-9_.-]}. */
    Pattern WORD = Pattern.compile("[A-Za-z0-9_.-]{1,32}");

    /** Checks a replica id or topic, naming the bad value's role (never echoing a long value). */
    static String word(String role, String value) {
        Objects.requireNonNull(value, role);
        if (!WORD.matcher(value).matches()) {
            throw new IllegalArgumentException(role + " must be 1-32 of [A-Za-z0-9_.-]"
                    + (value.length() <= 32 ? ", not '" + value + "'" : ""));
        }
        return value;
    }

    /** Where a topic's messages to this replica go. */
    @FunctionalInterface
    interface Handler {
        /** {@code body} from replica {@code from}; called on a virtual thread, never the bus's I/O thread. */
        void accept(String from, String body);
    }

    /** This replica's id, unique among the live replicas. */
    String self();

    /** Sends {@code body} on {@code topic} to replica {@code to}; false when it could not go (store unreachable). */
    boolean send(String to, String topic, String body);

    /** Sends {@code body} on {@code topic} to every other replica; false when it could not go. */
    boolean broadcast(String topic, String body);

    /** Sets the handler of {@code topic}'s messages to this replica (sent to it, or to all); one per topic. */
    void on(String topic, Handler handler);

    /** Whether replica {@code id} is up: its heartbeat is current (this replica is, while open). */
    boolean alive(String id);

    /**
     * Sets {@code field} of the shared record {@code key} to {@code value}; the whole record expires
     * {@code ttl} after its last write. False when the store could not take it.
     */
    boolean put(String key, String field, String value, Duration ttl);

    /** Removes {@code field} from record {@code key}; false when the store could not take it. */
    boolean remove(String key, String field);

    /** Record {@code key}'s fields (an empty map if there is none); empty when the store could not answer. */
    Optional<Map<String, String>> read(String key);

    /** Leaves the bus: this replica stops receiving, and soon counts as down to the others. */
    @Override
    void close();

    /** No other replica: sends go nowhere, facts are kept by nobody (the single-process default). */
    static ReplicaBus none() {
        return NoReplicas.INSTANCE;
    }

    /** Whether this is {@link #none()}: a component skips the shared path entirely. */
    default boolean alone() {
        return false;
    }
}
