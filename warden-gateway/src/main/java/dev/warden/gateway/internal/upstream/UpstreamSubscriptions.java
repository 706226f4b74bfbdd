package dev.warden.gateway.internal.upstream;

import dev.warden.client.McpClient;
import dev.warden.core.json.Json;
import dev.warden.core.mcp.Listening;
import dev.warden.core.session.OutgoingRequest;
import dev.warden.core.session.RequestOptions;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.node.ObjectNode;

/**
 * Resource subscriptions to one upstream, counted across its clients (they share its session):
 * the first subscriber of a URI subscribes upstream, the last to leave unsubscribes. A stateless
 * upstream hears of them on the gateway's one {@code subscriptions/listen} stream to it.
 */
final class UpstreamSubscriptions {

    private static final System.Logger LOG = System.getLogger(UpstreamSubscriptions.class.getName());
    /** How long one listen request may stay open before the gateway opens the next; a year, in effect. */
    private static final Duration LISTEN_FOR = Duration.ofDays(365);
    /** The pause before listening again after a stream ended: a server that ends them at once is not looped on. */
    private static final Duration RELISTEN_AFTER = Duration.ofSeconds(1);

    private final String name;
    private final UpstreamPool pool;
    /** Resource URIs clients subscribed to, with who did (a connection, or one of its listen streams). */
    private final ConcurrentHashMap<String, Set<Object>> subscribed = new ConcurrentHashMap<>();
    /** Guards the subscribers' counts and the listen stream. */
    private final Object listening = new Object();
    private OutgoingRequest listen;
    /** Listening again after the stream ended, a moment later; cancelled when the gateway closes. */
    private CompletableFuture<Void> retry = CompletableFuture.completedFuture(null);

    UpstreamSubscriptions(String name, UpstreamPool pool) {
        this.name = name;
        this.pool = pool;
    }

    /**
     * One more subscriber of a resource. True when it is the first: a session-based upstream is
     * then asked to subscribe (by the caller, who maps its refusal); a stateless one hears of it on
     * the listen stream.
     */
    boolean subscribe(Object subscriber, String uri) {
        boolean first;
        synchronized (listening) {
            Set<Object> who = subscribed.computeIfAbsent(uri, u -> ConcurrentHashMap.newKeySet());
            first = who.isEmpty();
            who.add(subscriber);
        }
        if (first && pool.speaksStateless()) {
            relisten();
        }
        return first;
    }

    /**
     * One subscriber fewer. True when it was the last: a session-based upstream is then asked to
     * unsubscribe, by the caller if {@code caller}, else here in the background (a client that
     * went away).
     */
    boolean unsubscribe(Object subscriber, String uri, boolean caller) {
        boolean last = false;
        synchronized (listening) {
            Set<Object> who = subscribed.get(uri);
            if (who != null && who.remove(subscriber) && who.isEmpty()) {
                subscribed.remove(uri);
                last = true;
            }
        }
        Optional<McpClient> first = pool.connected();
        if (last && pool.speaksStateless()) {
            relisten();
        } else if (last && !caller && first.isPresent()) {
            McpClient c = first.get();
            Thread.ofVirtual().start(() -> {
                try {
                    c.request("resources/unsubscribe", Json.object().put("uri", uri));
                } catch (RuntimeException e) {
                    LOG.log(System.Logger.Level.DEBUG, "upstream {0} did not unsubscribe", name);
                }
            });
        }
        return last;
    }

    /** Everything {@code subscriber} subscribed to, unsubscribed (a client connection that went away). */
    void unsubscribeAll(Object subscriber) {
        for (String uri : List.copyOf(subscribed.keySet())) {
            unsubscribe(subscriber, uri, false);
        }
    }

    /**
     * Sessions bring list changes and resource updates unasked; a stateless server sends them only
     * on a {@code subscriptions/listen} request naming them. The gateway keeps one open per
     * upstream with everything its clients could want (a new one when the subscriptions change,
     * and again after the stream ends), and fans out what arrives like a session's notifications.
     */
    void relisten() {
        McpClient c = pool.connected().orElse(null);
        if (c == null || pool.closed() || !c.protocolVersion().stateless()) {
            return;
        }
        ObjectNode caps = c.serverCapabilities();
        ObjectNode params = Json.object();
        ObjectNode filter = params.putObject("notifications");
        if (caps.path("tools").path("listChanged").asBoolean(false)) {
            filter.put("toolsListChanged", true);
        }
        if (caps.path("prompts").path("listChanged").asBoolean(false)) {
            filter.put("promptsListChanged", true);
        }
        if (caps.path("resources").path("listChanged").asBoolean(false)) {
            filter.put("resourcesListChanged", true);
        }
        if (caps.path("resources").path("subscribe").asBoolean(false) && !subscribed.isEmpty()) {
            subscribed.keySet().stream().sorted().limit(1000).forEach(filter.putArray("resourceSubscriptions")::add);
        }
        synchronized (listening) {
            if (listen != null) {
                listen.cancel("Replaced by a new subscription");
                listen = null;
            }
            if (filter.isEmpty()) {
                return;
            }
            OutgoingRequest next;
            try {
                next = c.requestAsync(Listening.METHOD, params, RequestOptions.ofDefaults().withTimeout(LISTEN_FOR));
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "upstream {0} refused a subscription", name);
                return;
            }
            listen = next;
            next.whenComplete((v, e) -> ended(next, e));
        }
    }

    /** The stream ended under us (the server restarted, say): listen again, not in a tight loop. */
    private void ended(OutgoingRequest stream, Throwable e) {
        boolean current;
        synchronized (listening) {
            current = listen == stream;
            if (current) {
                listen = null;
            }
        }
        if (current && !pool.closed() && !(e instanceof CancellationException)) {
            LOG.log(System.Logger.Level.DEBUG, "upstream {0} ended its subscription stream", name);
            synchronized (listening) {
                retry.cancel(false);
                retry = CompletableFuture.runAsync(this::relisten, CompletableFuture.delayedExecutor(
                        RELISTEN_AFTER.toMillis(), TimeUnit.MILLISECONDS, r -> Thread.ofVirtual().start(r)));
            }
        }
    }

    /** The gateway is closing: the listen stream ends. */
    void close() {
        synchronized (listening) {
            retry.cancel(false);
            if (listen != null) {
                listen.cancel("The gateway is closing");
            }
        }
    }
}
