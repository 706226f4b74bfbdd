package dev.warden.http.server.internal.session;

import dev.warden.core.cluster.ReplicaBus;
import dev.warden.core.json.Json;
import dev.warden.core.jsonrpc.Decoded;
import dev.warden.core.jsonrpc.JsonRpcCodec;
import dev.warden.core.jsonrpc.JsonRpcMessage;
import dev.warden.core.jsonrpc.RequestId;
import dev.warden.core.mcp.Cancellation;
import dev.warden.http.server.internal.settings.EndpointSettings;
import dev.warden.http.server.internal.stream.GetRoute;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What crosses replicas, over the {@link ReplicaBus}, for the portable sessions this replica holds
 * a copy of: a client's answer to another replica's question ({@link ReplicaIds}), a cancel for a
 * request not in flight here, a DELETE, and the log level and subscriptions (recorded in
 * {@link SessionFacts} and replayed into every copy, a moment after they arrive). What a copy sends
 * outside any request goes to the client's GET stream wherever it is, else is held here, bounded.
 * Inactive (every method a no-op) with {@link ReplicaBus#none()} or sessions that are not portable;
 * with the bus unreachable, what should have crossed is dropped with a DEBUG log, never thrown at
 * the client. The delivery model: docs/design/replicas-sessions.md ("What crosses for a session").
 */
public final class SessionRelay {

    private static final System.Logger LOG = System.getLogger(SessionRelay.class.getName());
    static final String ANSWERS = "sessions.answer";
    static final String CANCELS = "sessions.cancel";
    static final String ENDS = "sessions.ended";
    static final String CHANGES = "sessions.change";
    static final String GET_OPENED = "sessions.get";
    static final String TO_GET = "sessions.toget";

    private final ReplicaBus bus;
    private final boolean active;
    private final Optional<SessionFacts> facts;
    private final Consumer<HttpSessionTransport> endCopy;
    private final Map<String, HttpSessionTransport> byKey = new ConcurrentHashMap<>();
    private final Map<HttpSessionTransport, String> keys = new ConcurrentHashMap<>();
    /** Which replica holds the GET stream of each session this one holds a copy of (by key), as last heard. */
    private final Map<String, String> getAt = new ConcurrentHashMap<>();
    /** What the others tell copies being restored here, until they are. */
    private final RestoreQueue queue = new RestoreQueue();

    /** @param endCopy closes this replica's copy of a session deleted elsewhere, and keeps it from being restored here */
    SessionRelay(EndpointSettings settings, Consumer<HttpSessionTransport> endCopy) {
        this.bus = settings.replicas();
        this.active = settings.seal().isPresent() && !bus.alone();
        this.facts = active ? settings.seal().map(seal -> new SessionFacts(bus, seal.maxAge())) : Optional.empty();
        this.endCopy = endCopy;
        if (active) {
            bus.on(ANSWERS, (from, body) -> held(body).ifPresent(t -> answered(t, frame(body))));
            bus.on(CANCELS, (from, body) -> held(body).ifPresent(t -> cancelledHere(t, frame(body))));
            bus.on(ENDS, (from, body) -> held(body).ifPresent(t -> queue.whenReady(t, () -> endCopy.accept(t))));
            bus.on(GET_OPENED, (from, body) -> held(body).ifPresent(t -> getOpenedAt(t, from)));
            bus.on(TO_GET, (from, body) -> held(body).ifPresent(t -> t.pushToGet(parse(body).path("f").asString(""))));
            bus.on(CHANGES, (from, body) -> held(body).ifPresent(t -> {
                JsonNode message = parse(body);
                queue.whenReady(t, () -> replay(t, new SessionFacts.Change(message.path("m").asString(""),
                        message.path("p"))));
            }));
        }
    }

    /**
     * A copy being restored here: held (see {@link #holding}), and what the other replicas tell it
     * queued until {@link #restored}, so nothing reaches it before its server is connected and
     * initialized, and nothing older than its record is replayed over it.
     */
    void restoring(HttpSessionTransport transport) {
        if (active) {
            queue.restoring(transport);
            holding(transport);
        }
    }

    /** A portable session's copy opened here (initialized, or restored): its questions now name this replica. */
    void holding(HttpSessionTransport transport) {
        if (!active) {
            return;
        }
        String key = SessionFacts.key(transport.sessionId());
        keys.put(transport, key);
        byKey.put(key, transport);
        transport.namesReplica(bus.self(), new GetRoute() {
            @Override
            public boolean forward(String frame) {
                return toGet(key, frame);
            }

            @Override
            public void opened() {
                getOpened(key);
            }
        });
    }

    /**
     * The client opened its GET stream here: recorded (a copy restored later reads it) and told to
     * the replicas holding a copy, so what their copies send outside any request comes here.
     */
    private void getOpened(String key) {
        getAt.remove(key);
        if (!facts.get().getAt(key, bus.self()) | !bus.broadcast(GET_OPENED, body(key, Json.object()))) {
            LOG.log(System.Logger.Level.DEBUG, "where a session's GET stream is did not reach the other replicas");
        }
    }

    /** The client opened its GET stream on replica {@code at}: this copy's notifications go there from now on. */
    private void getOpenedAt(HttpSessionTransport transport, String at) {
        String key = keys.get(transport);
        if (key != null) {
            getAt.put(key, at);
            transport.getStreamElsewhere();
        }
    }

    /**
     * What this copy sends outside any request, with no GET stream here: to the replica holding the
     * client's GET stream. False (held here) when none other is known, or it is down, or the bus
     * cannot take it. Each copy of the session is subscribed and at the client's level (see above),
     * so where several copies' servers send the same notification the client may get it from each.
     */
    private boolean toGet(String key, String frame) {
        String at = getAt.get(key);
        if (at == null || at.equals(bus.self()) || !bus.alive(at)) {
            return false;
        }
        return bus.send(at, TO_GET, body(key, frameOf(frame)));
    }

    /** The copy is gone from this replica. */
    void forget(HttpSessionTransport transport) {
        queue.forget(transport);
        String key = keys.remove(transport);
        if (key != null && byKey.remove(key, transport)) {
            getAt.remove(key);
        }
    }

    /** The shared record of the session {@code sessionId}: empty when inactive or the store cannot answer. */
    Optional<Map<String, String>> record(String sessionId) {
        return facts.flatMap(f -> f.read(SessionFacts.key(sessionId)));
    }

    /** Whether the record says the client deleted the session (on any replica). */
    static boolean ended(Optional<Map<String, String>> record) {
        return record.map(r -> r.containsKey(SessionFacts.ENDED)).orElse(false);
    }

    /**
     * After the handshake replay of a restored copy: the level and subscriptions the client set (the
     * record read after the handshake), replayed; then what the others told the copy meanwhile, in
     * order (a change replayed twice is the same change).
     */
    void restored(HttpSessionTransport transport, Optional<Map<String, String>> record) {
        String key = keys.get(transport);
        record.flatMap(SessionFacts::getAt).filter(at -> key != null).ifPresent(at -> getAt.putIfAbsent(key, at));
        record.ifPresent(r -> SessionFacts.changesIn(r).forEach(change -> replay(transport, change)));
        queue.ready(transport);
    }

    /** The client deleted the session here: recorded, and every replica holding a copy closes it. */
    void ended(HttpSessionTransport transport) {
        String key = keys.get(transport);
        if (key == null) {
            return;
        }
        boolean recorded = facts.get().end(key);
        if (!recorded || !bus.broadcast(ENDS, body(key, Json.object()))) {
            LOG.log(System.Logger.Level.DEBUG, "a session's end did not reach the other replicas");
        }
    }

    /**
     * The requests of a POST about to be delivered here: those that change the session are recorded
     * and told to all once this copy has answered them with success (a refused one never crosses).
     */
    public void requested(HttpSessionTransport transport, Decoded decoded) {
        String key = keys.get(transport);
        if (key == null) {
            return;
        }
        for (JsonRpcMessage message : messages(decoded)) {
            if (message instanceof JsonRpcMessage.Request r && SessionFacts.changes(r.method())) {
                transport.whenAnswered(r.id(), () -> changed(key, r));
            }
        }
    }

    /** A change this copy accepted: recorded, and told to the replicas holding a copy (unless past the cap). */
    private void changed(String key, JsonRpcMessage.Request r) {
        if (!facts.get().record(key, r.method(), r.params())) {
            return;
        }
        ObjectNode change = Json.object();
        change.put("m", r.method());
        change.set("p", r.params().orElseGet(Json::object));
        if (!bus.broadcast(CHANGES, body(key, change))) {
            LOG.log(System.Logger.Level.DEBUG, "a session change did not reach the other replicas");
        }
    }

    /**
     * The notifications and answers of a POST: each goes where it belongs (an answer to the replica
     * its id names, a cancellation also to the others when its request is not in flight here), the
     * rest to this copy; exactly as they came when nothing crosses.
     */
    public void deliver(HttpSessionTransport transport, Decoded decoded, byte[] body) {
        String key = keys.get(transport);
        List<JsonRpcMessage> messages = key == null ? List.of() : messages(decoded);
        if (messages.isEmpty()) {
            transport.deliver(body); // not portable, or something the session itself refuses
            return;
        }
        List<JsonRpcMessage> here = new ArrayList<>();
        boolean rewritten = false;
        for (JsonRpcMessage message : messages) {
            if (message instanceof JsonRpcMessage.Response response && named(response).isPresent()) {
                rewritten = true;
                ReplicaIds.Named named = named(response).get();
                if (named.replica().equals(bus.self())) {
                    here.add(ReplicaIds.original(response, named.original()));
                } else {
                    forward(key, named.replica(), JsonRpcCodec.encode(response));
                }
                continue;
            }
            if (message instanceof JsonRpcMessage.Notification n && Cancellation.NOTIFICATION.equals(n.method())
                    && cancelled(n).filter(transport::inFlight).isEmpty()
                    && !bus.broadcast(CANCELS, body(key, frameOf(n)))) {
                LOG.log(System.Logger.Level.DEBUG, "a cancellation did not reach the other replicas");
            }
            here.add(message); // a cancellation of a request not in flight anywhere is ignored, as before
        }
        if (!rewritten) {
            transport.deliver(body);
        } else if (!here.isEmpty()) {
            String frame = decoded instanceof Decoded.Batch ? JsonRpcCodec.encodeBatch(here)
                    : JsonRpcCodec.encode(here.get(0));
            transport.deliver(frame.getBytes(StandardCharsets.UTF_8));
        }
    }

    private void forward(String key, String replica, String frame) {
        if (!bus.alive(replica)) {
            LOG.log(System.Logger.Level.DEBUG, "an answer for replica {0} was dropped: it is down", replica);
        } else if (!bus.send(replica, ANSWERS, body(key, frameOf(frame)))) {
            LOG.log(System.Logger.Level.DEBUG, "an answer for replica {0} was dropped: the bus is unreachable", replica);
        }
    }

    /** An answer another replica received for a question this one asked. */
    private void answered(HttpSessionTransport transport, Optional<JsonRpcMessage> message) {
        if (message.orElse(null) instanceof JsonRpcMessage.Response response && named(response).isPresent()) {
            String frame = JsonRpcCodec.encode(ReplicaIds.original(response, named(response).get().original()));
            transport.deliver(frame.getBytes(StandardCharsets.UTF_8));
        }
    }

    /** A cancellation another replica received: delivered if its request is in flight in this copy. */
    private void cancelledHere(HttpSessionTransport transport, Optional<JsonRpcMessage> message) {
        if (message.orElse(null) instanceof JsonRpcMessage.Notification n
                && cancelled(n).filter(transport::inFlight).isPresent()) {
            transport.deliver(JsonRpcCodec.encode(n).getBytes(StandardCharsets.UTF_8));
        }
    }

    /** A change replayed into this copy: a request of its own, whose answer has no stream and is dropped. */
    private void replay(HttpSessionTransport transport, SessionFacts.Change change) {
        if (!SessionFacts.changes(change.method())) {
            return;
        }
        JsonRpcMessage.Request request = new JsonRpcMessage.Request(
                RequestId.of("warden-replay-" + UUID.randomUUID()), change.method(), change.params()); // unguessable: no client id clashes
        transport.deliver(JsonRpcCodec.encode(request).getBytes(StandardCharsets.UTF_8));
    }

    private static Optional<ReplicaIds.Named> named(JsonRpcMessage.Response response) {
        return ReplicaIds.idOf(response).flatMap(ReplicaIds::named);
    }

    private static Optional<RequestId> cancelled(JsonRpcMessage.Notification n) {
        return n.params().flatMap(p -> RequestId.fromJson(p.get("requestId")));
    }

    private static List<JsonRpcMessage> messages(Decoded decoded) {
        List<JsonRpcMessage> messages = new ArrayList<>();
        switch (decoded) {
            case Decoded.Message m -> messages.add(m.message());
            case Decoded.Batch batch -> {
                for (Decoded item : batch.items()) {
                    if (!(item instanceof Decoded.Message m)) {
                        return List.of(); // the session refuses what is in it as it always did
                    }
                    messages.add(m.message());
                }
            }
            case Decoded.Invalid invalid -> { }
        }
        return messages;
    }

    /** This replica's open copy of the session whose key ({@link SessionFacts#key}) is {@code key}, if it holds one. */
    public Optional<HttpSessionTransport> copy(String key) {
        HttpSessionTransport transport = byKey.get(key);
        return transport == null || transport.isClosed() ? Optional.empty() : Optional.of(transport);
    }

    /** The copy of the session a message names, if this replica holds one. */
    private Optional<HttpSessionTransport> held(String body) {
        HttpSessionTransport transport = byKey.get(parse(body).path("k").asString(""));
        return transport == null || transport.isClosed() ? Optional.empty() : Optional.of(transport);
    }

    private static ObjectNode frameOf(JsonRpcMessage message) {
        return frameOf(JsonRpcCodec.encode(message));
    }

    private static ObjectNode frameOf(String frame) {
        ObjectNode node = Json.object();
        node.put("f", frame);
        return node;
    }

    private static Optional<JsonRpcMessage> frame(String body) {
        return JsonRpcCodec.decode(parse(body).path("f").asString("")) instanceof Decoded.Message m
                ? Optional.of(m.message()) : Optional.empty();
    }

    private static String body(String key, ObjectNode content) {
        content.put("k", key);
        return Json.write(content);
    }

    private static JsonNode parse(String body) {
        try {
            return Json.mapper().readTree(body);
        } catch (RuntimeException e) {
            return Json.object();
        }
    }
}
