package dev.warden.http.server.internal.session;

import dev.warden.core.cluster.ReplicaBus;
import dev.warden.core.json.Json;
import dev.warden.core.mcp.Logging;
import dev.warden.core.mcp.Resources;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What a portable session changed after its initialize, kept where every replica reads it (one
 * shared record per session, expiring with the seal's max age after its last write): that its
 * client deleted it ({@code ended}), which replica holds its GET stream ({@code get}), the log
 * level it set ({@code level}: the last {@code logging/setLevel} params), and the URIs it
 * subscribes to (a field {@code sub:{uri}} each,
 * so two replicas changing the set at once never lose each other's change). A replica restoring
 * the session replays these into its copy after the handshake.
 *
 * <p>The record's key is a digest of the session id, never the id: without authentication an id
 * is a bearer secret, and it has no business in a store's key space or on the bus.
 */
public final class SessionFacts {

    static final String ENDED = "ended";
    private static final String LEVEL = "level";
    private static final String SUB = "sub:";
    private static final String GET = "get";
    /** The subscriptions a session's record holds at most: replayed into every restored copy, so bounded. */
    static final int MAX_SUBSCRIPTIONS = 256;
    private static final System.Logger LOG = System.getLogger(SessionFacts.class.getName());

    private final ReplicaBus bus;
    private final Duration ttl;

    SessionFacts(ReplicaBus bus, Duration ttl) {
        this.bus = bus;
        this.ttl = ttl;
    }

    /** The key of a session's record, and of the session in messages between replicas. */
    public static String key(String sessionId) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(sessionId.getBytes(StandardCharsets.UTF_8));
            return "warden.s." + Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    /** Whether {@code method} changes what later requests of the session depend on. */
    static boolean changes(String method) {
        return Logging.SET_LEVEL.equals(method) || Resources.SUBSCRIBE.equals(method)
                || Resources.UNSUBSCRIBE.equals(method);
    }

    /** Records that the session was deleted; false when the store could not take it. */
    boolean end(String key) {
        return bus.put(key, ENDED, "1", ttl);
    }

    /** Records that the client's GET stream is on {@code replica}; false when the store could not take it. */
    boolean getAt(String key, String replica) {
        return bus.put(key, GET, replica, ttl);
    }

    /** The replica the record says holds the client's GET stream. */
    static Optional<String> getAt(Map<String, String> record) {
        return Optional.ofNullable(record.get(GET));
    }

    /** The session's record; empty when the store could not answer. */
    Optional<Map<String, String>> read(String key) {
        return bus.read(key);
    }

    /**
     * Records a change ({@link #changes} says which); a store that cannot take it leaves it to this
     * replica. False for a subscription past {@link #MAX_SUBSCRIPTIONS}: neither recorded nor to be
     * told to the others (a client subscribing in a loop must not grow the store, nor every restore).
     */
    boolean record(String key, String method, Optional<JsonNode> params) {
        ObjectNode p = params.filter(ObjectNode.class::isInstance).map(ObjectNode.class::cast)
                .orElseGet(Json::object);
        String uri = p.path("uri").asString("");
        if (Resources.SUBSCRIBE.equals(method) && full(key, uri)) {
            LOG.log(System.Logger.Level.DEBUG, "a subscription was not recorded for the other replicas: the session "
                    + "has " + MAX_SUBSCRIPTIONS + " already");
            return false;
        }
        boolean stored = switch (method) {
            case Logging.SET_LEVEL -> bus.put(key, LEVEL, Json.write(p), ttl);
            case Resources.SUBSCRIBE -> !uri.isEmpty() && bus.put(key, SUB + uri, "1", ttl);
            case Resources.UNSUBSCRIBE -> !uri.isEmpty() && bus.remove(key, SUB + uri);
            default -> true;
        };
        if (!stored) {
            LOG.log(System.Logger.Level.DEBUG, "a session change was not recorded for the other replicas");
        }
        return true;
    }

    /** Whether the record holds as many subscriptions as it may, {@code uri} not among them. */
    private boolean full(String key, String uri) {
        return read(key).map(record -> !record.containsKey(SUB + uri)
                && record.keySet().stream().filter(f -> f.startsWith(SUB)).count() >= MAX_SUBSCRIPTIONS)
                .orElse(false);
    }

    /** One change to replay into a copy of the session: a request of its own, whose answer nobody reads. */
    record Change(String method, JsonNode params) {
    }

    /** What to replay into a restored copy, in order: the level, then each subscription. */
    static List<Change> changesIn(Map<String, String> record) {
        List<Change> changes = new ArrayList<>();
        Optional.ofNullable(record.get(LEVEL)).map(SessionFacts::params)
                .ifPresent(p -> changes.add(new Change(Logging.SET_LEVEL, p)));
        record.keySet().stream().filter(f -> f.startsWith(SUB)).sorted().forEach(f -> {
            ObjectNode p = Json.object();
            p.put("uri", f.substring(SUB.length()));
            changes.add(new Change(Resources.SUBSCRIBE, p));
        });
        return changes;
    }

    private static JsonNode params(String json) {
        try {
            return Json.mapper().readTree(json);
        } catch (RuntimeException e) {
            return Json.object();
        }
    }
}
