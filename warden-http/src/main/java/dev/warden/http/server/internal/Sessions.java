package dev.warden.http.server.internal;

import dev.warden.core.jsonrpc.JsonRpcError;
import dev.warden.core.jsonrpc.JsonRpcMessage;
import dev.warden.core.mcp.ProtocolVersion;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import tools.jackson.databind.JsonNode;

/**
 * The open sessions of the session-based versions, by id: admitted against the caps (the idle one
 * of longest standing makes room), closed after the idle timeout, looked up for each request.
 */
final class Sessions {

    private static final SecureRandom RANDOM = new SecureRandom();

    private final EndpointSettings settings;
    private final ScheduledExecutorService timers;
    private final HttpCounters counters;
    private final Refusals refusals;
    private final Map<String, HttpSessionTransport> open = new ConcurrentHashMap<>();
    /** Held while a new session is admitted against the caps; a lock, so no carrier is pinned on JDK 21. */
    private final ReentrantLock admission = new ReentrantLock();

    Sessions(EndpointSettings settings, ScheduledExecutorService timers, HttpCounters counters, Refusals refusals) {
        this.settings = settings;
        this.timers = timers;
        this.counters = counters;
        this.refusals = refusals;
    }

    int count() {
        expireIdle();
        return open.size();
    }

    /** Called periodically: idle sessions closed, keep-alive comments on the others' open streams. */
    void tick() {
        expireIdle();
        open.values().forEach(HttpSessionTransport::keepAlive);
    }

    /** Closes the sessions idle for longer than the idle timeout, and forgets closed ones. */
    private void expireIdle() {
        long now = settings.clock().millis();
        open.values().removeIf(t -> {
            if (t.isClosed()) {
                return true;
            }
            if (t.expired(now, settings.sessionIdleTimeout())) {
                t.close();
                counters.sessionsExpired.increment();
                return true;
            }
            return false;
        });
    }

    void closeAll() {
        open.values().forEach(HttpSessionTransport::close);
        open.clear();
    }

    /** Ends a session its client deleted. */
    void end(HttpSessionTransport transport) {
        open.remove(transport.sessionId());
        transport.close();
    }

    /** The request's session, or an error response (400 without the header, 404 if unknown or ended). */
    Optional<HttpSessionTransport> of(Request request, Response response, Callback callback) {
        Optional<String> id = Headers.header(request, Headers.SESSION);
        if (id.isEmpty()) {
            refusals.error(response, callback, 400, JsonRpcError.INVALID_REQUEST,
                    "Bad request: the Mcp-Session-Id header is required");
            return Optional.empty();
        }
        HttpSessionTransport transport = open.get(id.get());
        if (transport != null && transport.expired(settings.clock().millis(), settings.sessionIdleTimeout())
                && open.remove(id.get(), transport)) {
            transport.close();
            counters.sessionsExpired.increment();
        }
        if (transport == null || transport.isClosed()) {
            refusals.error(response, callback, 404, JsonRpcError.INVALID_REQUEST,
                    "Not found: the session does not exist or has ended; initialize a new one");
            return Optional.empty();
        }
        return Optional.of(transport);
    }

    /**
     * A new session, unless the caps are reached: at the cap (in total, or for the client's
     * address), the session idle for longest makes room; when none is idle, none is opened. The
     * decision is taken under a lock (so the caps hold under concurrent initializes); closing the
     * evicted session and connecting the new one happen after it, as both may take time.
     */
    Optional<HttpSessionTransport> admit(JsonRpcMessage.Request initialize, String address) {
        ClientLimits limits = settings.limits();
        List<HttpSessionTransport> evicted = new ArrayList<>();
        HttpSessionTransport transport;
        admission.lock();
        try {
            if (open.size() >= limits.maxSessions() || countFrom(address) >= limits.maxSessionsPerAddress()) {
                expireIdle();
            }
            if (countFrom(address) >= limits.maxSessionsPerAddress()
                    && !evictOldestIdle(t -> t.remoteAddress().equals(address), evicted)) {
                return Optional.empty();
            }
            if (open.size() >= limits.maxSessions() && !evictOldestIdle(t -> true, evicted)) {
                return Optional.empty();
            }
            byte[] random = new byte[24];
            RANDOM.nextBytes(random);
            String id = Base64.getUrlEncoder().withoutPadding().encodeToString(random);
            transport = new HttpSessionTransport(id, address, settings.resumeWindow(), timers,
                    limits.session(), settings.clock(), counters);
            initialize.params().map(p -> p.get("protocolVersion")).filter(JsonNode::isString)
                    .map(v -> ProtocolVersion.negotiate(v.stringValue())).ifPresent(transport::version);
            open.put(id, transport);
        } finally {
            admission.unlock();
        }
        evicted.forEach(HttpSessionTransport::close);
        counters.sessionsOpened.increment();
        settings.onSession().accept(transport);
        return Optional.of(transport);
    }

    private long countFrom(String address) {
        return open.values().stream().filter(t -> t.remoteAddress().equals(address)).count();
    }

    /**
     * Takes out the idle session (among those {@code which} selects) last active longest ago, to be
     * closed by the caller; false if none is idle.
     */
    private boolean evictOldestIdle(Predicate<HttpSessionTransport> which, List<HttpSessionTransport> evicted) {
        Optional<HttpSessionTransport> oldest = open.values().stream().filter(which)
                .filter(HttpSessionTransport::idle)
                .min(Comparator.comparingLong(HttpSessionTransport::lastActive));
        oldest.ifPresent(t -> {
            open.remove(t.sessionId());
            evicted.add(t);
            counters.sessionsEvicted.increment();
        });
        return oldest.isPresent();
    }
}
