package dev.warden.gateway.internal.upstream;

import dev.warden.client.McpClient;
import dev.warden.core.error.ErrorCode;
import dev.warden.core.error.ProtocolException;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import tools.jackson.databind.node.ObjectNode;

/**
 * Who has requests in flight on one of an upstream's sessions (client connections and parked
 * calls): the session's own requests (sampling, elicitation, roots) can only be about one of them.
 */
final class Askers {

    /**
     * Requests during which a server asks its client nothing: listings, ping, the log level,
     * subscriptions. A client with only these in flight is no candidate for a question, so one
     * client listing tools while another's tool asks for input leaves the question routable.
     */
    private static final Set<String> QUIET = Set.of("ping", "tools/list", "prompts/list", "resources/list",
            "resources/templates/list", "logging/setLevel", "resources/subscribe", "resources/unsubscribe");

    private final UpstreamLink link;
    private final ConcurrentHashMap<Asker, AtomicInteger> inFlight = new ConcurrentHashMap<>();
    /** Of those, the ones with a request in flight that a question can be about (not {@link #QUIET}). */
    private final ConcurrentHashMap<Asker, AtomicInteger> mayAsk = new ConcurrentHashMap<>();
    /** The session, once connected (its handlers are made before it exists). */
    private volatile McpClient session;

    Askers(UpstreamLink link) {
        this.link = link;
    }

    void session(McpClient session) {
        this.session = session;
    }

    /** The session, while it is still connecting: none. */
    Optional<McpClient> session() {
        return Optional.ofNullable(session);
    }

    /** {@code asker} sent {@code method}, in flight on the session until {@link #leave}. */
    void enter(Asker asker, String method) {
        inFlight.computeIfAbsent(asker, c -> new AtomicInteger()).incrementAndGet();
        if (!QUIET.contains(method)) {
            mayAsk.computeIfAbsent(asker, c -> new AtomicInteger()).incrementAndGet();
        }
    }

    void leave(Asker asker, String method) {
        inFlight.computeIfPresent(asker, (c, n) -> n.decrementAndGet() <= 0 ? null : n);
        if (!QUIET.contains(method)) {
            mayAsk.computeIfPresent(asker, (c, n) -> n.decrementAndGet() <= 0 ? null : n);
        }
    }

    /** A client connection that went away has nothing in flight any more. */
    void forget(Asker asker) {
        inFlight.remove(asker);
        mayAsk.remove(asker);
    }

    /** Whether any request is in flight on the session (then it is not idle). */
    boolean busy() {
        return !inFlight.isEmpty();
    }

    /**
     * A request from the upstream to a client: only one with a request in flight on this
     * session can have caused it (a listing or a ping causes none); with none or several it cannot
     * be routed and is refused.
     */
    ObjectNode ask(String method, ObjectNode params) throws Exception {
        Optional<String> task = link.sole() ? Optional.empty() : TaskOwners.relatedTask(params);
        if (task.isPresent()) {
            return aboutTask(task.get(), method, params);
        }
        List<Asker> candidates = mayAsk.keySet().stream().filter(a -> !a.waitingForClient()).toList();
        // On a shared connection, never a client's own roots, where another client could read
        // them; except for a stateless client's parked call asked alone: the question goes back
        // to that client inside its own call's result (input required), the round the
        // 2026-07-28 protocol defines for it, and its answer serves that call.
        boolean ownCallAsks = candidates.size() == 1 && candidates.get(0).answersInItsOwnCall();
        if (!link.dedicated() && "roots/list".equals(method) && !ownCallAsks) {
            return link.sharedRoots();
        }
        if (candidates.size() == 1) {
            return candidates.get(0).ask(session, method, params);
        }
        List<ClientConnection> only = link.connections();
        if (link.dedicated() && candidates.isEmpty() && only.size() == 1) {
            // One client, no call in flight (roots at start, after roots/list_changed): it is the one asked.
            return only.get(0).ask(session, method, params);
        }
        throw ProtocolException.internal("The gateway cannot tell which client this request is for", ErrorCode.UPSTREAM_ERROR);
    }

    /**
     * A question about a task ({@code related-task}) is its creator's, whoever has a call in
     * flight: asked on the client connection that created it on this session, else refused.
     */
    private ObjectNode aboutTask(String taskId, String method, ObjectNode params) throws Exception {
        McpClient on = session;
        List<ClientConnection> owner = on == null ? List.of()
                : link.connections().stream().filter(c -> c.created(on, taskId)).toList();
        if (owner.size() != 1) {
            throw ProtocolException.internal("The client this task belongs to cannot be asked", ErrorCode.UPSTREAM_ERROR);
        }
        return owner.get(0).ask(on, method, params);
    }
}
