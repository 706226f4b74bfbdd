package dev.warden.http.server.internal.session;

import dev.warden.core.error.ProtocolException;
import dev.warden.core.identity.Caller;
import dev.warden.core.jsonrpc.JsonRpcError;
import dev.warden.core.jsonrpc.JsonRpcMessage;
import dev.warden.core.protocol.ServerHandshake;
import dev.warden.http.server.internal.request.Headers;
import dev.warden.http.server.internal.request.Refusals;
import dev.warden.http.server.internal.seal.SealedSession;
import dev.warden.http.server.internal.seal.SessionSeal;
import dev.warden.http.server.internal.settings.ClientLimits;
import dev.warden.http.server.internal.settings.EndpointSettings;
import dev.warden.http.server.internal.stream.StreamIds;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.locks.ReentrantLock;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import tools.jackson.databind.JsonNode;

/**
 * The open sessions of the session-based versions, by id: admitted against the caps (the idle one
 * of longest standing makes room), closed after the idle timeout, looked up for each request.
 * Admission does not look at every open session: the count per address is kept, and the idle one
 * of longest standing is found in {@link IdleOrder}s, in all and per address.
 */
public final class Sessions {

    /** When a client refused for want of a free session slot is told to try again. */
    public static final int FULL_RETRY_SECONDS = 60;

    private static final SecureRandom RANDOM = new SecureRandom();
    /** What a request for a session that does not exist, or no longer, is told (404). */
    public static final String NOT_FOUND = ProtocolException.sessionNotFound().getMessage();

    private final EndpointSettings settings;
    private final ScheduledExecutorService timers;
    private final HttpCounters counters;
    private final Refusals refusals;
    private final Map<String, HttpSessionTransport> open = new ConcurrentHashMap<>();
    /**
     * Held while a session is admitted against the caps or forgotten, and guarding what follows; a
     * lock, so no carrier is pinned on JDK 21.
     */
    private final ReentrantLock admission = new ReentrantLock();
    private final IdleOrder idleOrder = new IdleOrder();
    private final Map<String, FromAddress> byAddress = new HashMap<>();
    /**
     * Portable sessions their clients deleted here (their ids would still open, so they are not
     * restored here again; other replicas read the shared record), and when each open copy's
     * sealed id stops opening.
     */
    private final PortableLifetimes lifetimes;
    /** What crosses replicas for portable sessions; inactive with one process. */
    private final SessionRelay relay;

    /** One remote address's open sessions: how many, and in their idle order. */
    private static final class FromAddress {
        int count;
        final IdleOrder idleOrder = new IdleOrder();
    }

    public Sessions(EndpointSettings settings, ScheduledExecutorService timers, HttpCounters counters, Refusals refusals) {
        this.settings = settings;
        this.timers = timers;
        this.counters = counters;
        this.refusals = refusals;
        this.lifetimes = new PortableLifetimes(settings.limits().maxSessions());
        this.relay = new SessionRelay(settings, this::endCopy);
    }

    public SessionRelay relay() {
        return relay;
    }

    public int count() {
        expireIdle();
        return open.size();
    }

    /** Called periodically: idle sessions closed, keep-alive comments on the others' open streams. */
    public void tick() {
        expireIdle();
        open.values().forEach(HttpSessionTransport::keepAlive);
    }

    /**
     * Closes the sessions idle for longer than the idle timeout, and the idle portable ones past
     * their maximum age (a copy with a request in flight answers it first); forgets closed ones.
     */
    private void expireIdle() {
        long now = settings.clock().millis();
        for (HttpSessionTransport t : open.values()) {
            if (t.isClosed()) {
                forget(t);
            } else if ((t.expired(now, settings.sessionIdleTimeout()) || t.idle() && lifetimes.pastMaxAge(t, now))
                    && forget(t)) {
                t.close();
                counters.sessionsExpired.increment();
            }
        }
    }

    public void closeAll() {
        open.values().forEach(t -> {
            forget(t);
            t.close();
        });
    }

    /** Ends a session its client deleted: here, and (portable, among replicas) on every replica. */
    public void end(HttpSessionTransport transport) {
        relay.ended(transport);
        endCopy(transport);
    }

    /**
     * Closes this replica's copy of a deleted session; a portable one is not restored here again,
     * even when the replicas' shared record cannot be read.
     */
    private void endCopy(HttpSessionTransport transport) {
        if (settings.seal().isPresent()) {
            lifetimes.ended(transport.sessionId());
        }
        forget(transport);
        transport.close();
    }

    /** Takes a session out of the open ones (and its address's count); false if it was not in them. */
    private boolean forget(HttpSessionTransport transport) {
        admission.lock();
        try {
            if (!open.remove(transport.sessionId(), transport)) {
                return false;
            }
            relay.forget(transport);
            lifetimes.forgotten(transport);
            FromAddress from = byAddress.get(transport.capKey());
            if (--from.count == 0) {
                byAddress.remove(transport.capKey());
            } else {
                from.idleOrder.compact(from.count, this::isOpen);
            }
            idleOrder.compact(open.size(), this::isOpen);
            return true;
        } finally {
            admission.unlock();
        }
    }

    private boolean isOpen(HttpSessionTransport transport) {
        return open.get(transport.sessionId()) == transport;
    }

    /**
     * The request's session, or an error response (400 without the header, 404 if unknown or
     * ended). The session a request names, if open and, when the server authenticates, opened by the same
     * principal: another caller presenting its id is told it does not exist, exactly as for an
     * unknown one. The session then acts for this request's credentials (a client that stepped up
     * to more scopes has them from now on).
     */
    public Optional<HttpSessionTransport> of(Request request, Response response, Callback callback, Optional<Caller> caller) {
        Optional<String> id = Headers.header(request, Headers.SESSION);
        if (id.isEmpty()) {
            refusals.error(response, callback, 400, JsonRpcError.INVALID_REQUEST,
                    "Bad request: the Mcp-Session-Id header is required");
            return Optional.empty();
        }
        HttpSessionTransport transport = open.get(id.get());
        if (transport != null && lifetimes.pastMaxAge(transport, settings.clock().millis())) {
            // Refused as its id would be on a replica restoring it; closed once its requests are answered.
            if (transport.idle() && forget(transport)) {
                transport.close();
                counters.sessionsExpired.increment();
            }
            refusals.error(response, callback, 404, JsonRpcError.INVALID_REQUEST, NOT_FOUND);
            return Optional.empty();
        }
        if (transport != null && transport.expired(settings.clock().millis(), settings.sessionIdleTimeout())
                && forget(transport)) {
            transport.close();
            counters.sessionsExpired.increment();
            transport = null; // a portable session's id restores it afresh, as on any other replica
        }
        if (transport == null && settings.seal().isPresent()) {
            Restoration restored = restore(settings.seal().get(), id.get(), Request.getRemoteAddr(request), caller);
            if (restored.noRoom()) {
                counters.sessionsRefused.increment();
                refusals.retryLater(response, callback, 503, FULL_RETRY_SECONDS, Optional.empty(),
                        Refusals.tooManySessions());
                return Optional.empty();
            }
            transport = restored.transport().orElse(null);
        }
        if (transport == null || !transport.connecting().awaitDone() || transport.isClosed() || !transport.ownedBy(caller)) {
            refusals.error(response, callback, 404, JsonRpcError.INVALID_REQUEST, NOT_FOUND);
            return Optional.empty();
        }
        caller.ifPresent(transport::actingFor);
        return Optional.of(transport);
    }

    /**
     * A new session, unless the caps are reached: at the cap (in total, or for the client's
     * address), the session idle for longest makes room; when none is idle, none is opened. The
     * decision is taken under a lock (so the caps hold under concurrent initializes); closing the
     * evicted session and connecting the new one happen after it, as both may take time. When
     * sessions are portable, the id is sealed with what another replica needs to restore it.
     */
    public Optional<HttpSessionTransport> admit(JsonRpcMessage.Request initialize, String address, Optional<Caller> caller) {
        // Read before sealing, so the copy stops no later than its id does.
        long notAfter = settings.clock().millis() + settings.seal().map(seal -> seal.maxAge().toMillis()).orElse(0L);
        Optional<String> sealed = settings.seal().flatMap(seal -> {
            Optional<String> id = seal.seal(SealedSession.of(caller, initialize.params()).bytes());
            if (id.isEmpty()) {
                counters.sessionsNotPortable.increment();
            }
            return id;
        });
        String id = sealed.orElseGet(() -> randomId(24));
        String streamPrefix = sealed.isPresent() ? StreamIds.portablePrefix(settings.replicas(), randomId(6))
                : id.substring(0, 8);
        Optional<HttpSessionTransport> placed = place(id, address, caller, streamPrefix);
        placed.ifPresent(transport -> {
            initialize.params().map(p -> p.get("protocolVersion")).filter(JsonNode::isString)
                    .map(v -> ServerHandshake.settled(v.stringValue())).ifPresent(transport::version);
            counters.sessionsOpened.increment();
            if (sealed.isPresent()) {
                lifetimes.opened(transport, notAfter);
                relay.holding(transport);
            }
            transport.connecting().claim();
            try {
                settings.onSession().accept(transport);
            } finally {
                transport.connecting().done();
            }
        });
        return placed;
    }

    /** What restoring an id came to: the session, or nothing, and whether for lack of room. */
    private record Restoration(Optional<HttpSessionTransport> transport, boolean noRoom) {
        static final Restoration NONE = new Restoration(Optional.empty(), false);
    }

    /**
     * A session this replica does not hold, restored from its sealed id ({@link SessionRestore});
     * none when the id does not open, belongs to another principal, or was deleted here; no room
     * when the caps are reached and no session is idle (answered as a refused initialize is).
     */
    private Restoration restore(SessionSeal seal, String id, String address, Optional<Caller> caller) {
        if (lifetimes.endedHere(id)) {
            return Restoration.NONE;
        }
        Optional<SessionRestore.Opened> opened = SessionRestore.open(seal, id);
        if (opened.isEmpty() || !opened.get().state().ownedBy(caller)) {
            return Restoration.NONE;
        }
        SealedSession state = opened.get().state();
        Optional<Map<String, String>> record = relay.record(id); // what the session changed since, on any replica
        if (SessionRelay.ended(record)) {
            return Restoration.NONE; // deleted on another replica
        }
        Optional<HttpSessionTransport> placed = place(id, address, caller,
                StreamIds.portablePrefix(settings.replicas(), randomId(6)));
        if (placed.isEmpty()) {
            return new Restoration(Optional.empty(), true);
        }
        HttpSessionTransport transport = placed.get();
        if (!transport.connecting().claim()) {
            return new Restoration(placed, false); // another request is restoring it, or has (of() waits for it)
        }
        try {
            lifetimes.opened(transport, opened.get().notAfterMillis());
            Optional.ofNullable(state.initialize().get("protocolVersion")).filter(JsonNode::isString)
                    .map(v -> ServerHandshake.settled(v.stringValue())).ifPresent(transport::version);
            relay.restoring(transport); // from now on what the others tell this copy waits for restored()
            settings.onSession().accept(transport);
            SessionRestore.replay(transport, state);
            // Read again: what changed since the first read went into the record, or is queued, or both.
            Optional<Map<String, String>> now = relay.record(id).or(() -> record);
            if (SessionRelay.ended(now)) {
                endCopy(transport); // deleted on another replica meanwhile
                return Restoration.NONE;
            }
            relay.restored(transport, now);
            counters.sessionsRestored.increment();
        } finally {
            transport.connecting().done();
        }
        return new Restoration(placed, false);
    }

    /**
     * Places a session under the caps (see {@link #admit}); when a session of that id is open
     * already (two requests restoring one id at once), that one.
     */
    private Optional<HttpSessionTransport> place(String id, String address, Optional<Caller> caller,
                                                 String streamPrefix) {
        // Authenticated callers are counted per principal, not per address: behind a proxy or a NAT
        // every caller shares one address, and one of them must not make room by closing the
        // others' sessions.
        String capKey = caller.map(c -> "principal " + c.kind() + " " + c.issuer() + " " + c.subject()).orElse(address);
        ClientLimits limits = settings.limits();
        List<HttpSessionTransport> evicted = new ArrayList<>();
        HttpSessionTransport transport;
        admission.lock();
        try {
            HttpSessionTransport already = open.get(id);
            if (already != null && !already.isClosed()) {
                return Optional.of(already);
            }
            while (countFrom(capKey) >= limits.maxSessionsPerAddress()) {
                if (!makeRoom(byAddress.get(capKey).idleOrder, evicted)) {
                    return Optional.empty();
                }
            }
            while (open.size() >= limits.maxSessions()) {
                if (!makeRoom(idleOrder, evicted)) {
                    return Optional.empty();
                }
            }
            transport = new HttpSessionTransport(id, address, settings.resumeWindow(),
                    limits.session(), settings.clock(), counters, caller, capKey, streamPrefix);
            open.put(id, transport);
            FromAddress from = byAddress.computeIfAbsent(capKey, a -> new FromAddress());
            from.count++;
            from.idleOrder.add(transport);
            idleOrder.add(transport);
        } finally {
            admission.unlock();
        }
        evicted.forEach(HttpSessionTransport::close);
        return Optional.of(transport);
    }

    private static String randomId(int bytes) {
        byte[] random = new byte[bytes];
        RANDOM.nextBytes(random);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(random);
    }

    /**
     * Takes out the idle session (of those {@code order} holds) last active longest ago, to be
     * closed by the caller (one past its idle timeout counts as expired, one already closed as
     * nothing); false if none is idle. Called with the lock held.
     */
    private boolean makeRoom(IdleOrder order, List<HttpSessionTransport> evicted) {
        Optional<HttpSessionTransport> oldest = order.takeOldestIdle(this::isOpen);
        oldest.ifPresent(t -> {
            forget(t);
            if (t.isClosed()) {
                return;
            }
            evicted.add(t);
            if (t.expired(settings.clock().millis(), settings.sessionIdleTimeout())) {
                counters.sessionsExpired.increment();
            } else {
                counters.sessionsEvicted.increment();
            }
        });
        return oldest.isPresent();
    }

    private int countFrom(String address) {
        FromAddress from = byAddress.get(address);
        return from == null ? 0 : from.count;
    }
}
