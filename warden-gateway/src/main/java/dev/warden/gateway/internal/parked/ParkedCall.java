package dev.warden.gateway.internal.parked;

import dev.warden.client.McpClient;
import dev.warden.core.error.ProtocolException;
import dev.warden.core.json.Json;
import dev.warden.core.mcp.Lifecycle;
import dev.warden.core.session.OutgoingRequest;
import dev.warden.gateway.internal.limits.Guard;
import dev.warden.gateway.internal.tracing.UpstreamSpan;
import dev.warden.gateway.internal.upstream.Asker;
import dev.warden.gateway.internal.upstream.UpstreamLink;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A call from a stateless client (2026-07-28) to a session-based upstream that asks the client for
 * something (sampling, elicitation, roots) while it runs. The stateless client cannot be asked
 * mid-request; it is answered with an input-required result instead, and the upstream call waits
 * here, with the upstream's question open, until the client sends the request again with the
 * answers and this call's {@code requestState} (an unguessable token, so only that client can
 * resume it).
 */
public final class ParkedCall implements Asker {

    /** How the gateway's own request states begin; anything else belongs to the upstream. */
    public static final String PREFIX = "warden-parked.";

    private record Ask(String method, ObjectNode params, CompletableFuture<ObjectNode> answer) {
    }

    private static final Object DONE = new Object();

    // A fresh token each round: an earlier round's state (replayed, or sent twice) resumes nothing.
    private volatile String token;
    /** Where the tokens come from: they name the replica holding the call when there are several. */
    private final ParkedTokens tokens;
    private final UpstreamLink link;
    private final McpClient session;
    private final String method;
    private final String name;
    private volatile Guard.Permit permit;
    private final AtomicBoolean released = new AtomicBoolean();
    private final BlockingQueue<Object> events = new LinkedBlockingQueue<>();
    private final Map<String, Ask> outstanding = new LinkedHashMap<>();
    private volatile OutgoingRequest upstream;
    /** The span of the upstream request, started in the first round, ended by the last (or when abandoned). */
    private volatile Optional<UpstreamSpan> span = Optional.empty();
    private int asked;

    public ParkedCall(UpstreamLink link, McpClient session, String method, String name,
            Guard.Permit permit, ParkedTokens tokens) {
        this.tokens = tokens;
        this.token = tokens.next();
        this.link = link;
        this.session = session;
        this.method = method;
        this.name = name;
        this.permit = permit;
        link.enter(session, this, method);
    }

    /** The upstream session the call runs on. */
    public McpClient session() {
        return session;
    }

    /** The upstream the call runs on (parked calls are bounded per upstream). */
    String upstreamName() {
        return link.name();
    }

    public Guard.Permit permit() {
        return permit;
    }

    /** Frees the call's place among the upstream's askers, once; the permit is settled by whoever ends the call. */
    public void leave() {
        if (released.compareAndSet(false, true)) {
            link.leave(session, this, method);
        }
    }

    String token() {
        return token;
    }

    /** Whether a request may resume this call: the same method on the same tool, prompt or resource of the same upstream. */
    public boolean resumableBy(UpstreamLink link, String method, String name) {
        return this.link == link && this.method.equals(method) && this.name.equals(name);
    }

    public void traced(UpstreamSpan span) {
        this.span = Optional.of(span);
    }

    public Optional<UpstreamSpan> span() {
        return span;
    }

    public void start(OutgoingRequest request) {
        this.upstream = request;
        request.whenComplete((v, e) -> events.offer(DONE));
    }

    public OutgoingRequest upstream() {
        return upstream;
    }

    /** The upstream asks the client: the question waits for the client's next round. */
    @Override
    public ObjectNode ask(McpClient on, String method, ObjectNode params) throws Exception {
        Ask ask = new Ask(method, params, new CompletableFuture<>());
        events.offer(ask);
        try {
            return ask.answer().get();
        } catch (InterruptedException e) {
            ask.answer().cancel(true);
            throw e;
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
    }

    @Override
    public boolean answersInItsOwnCall() {
        return true;
    }

    @Override
    public boolean waitingForClient() {
        synchronized (outstanding) {
            return !outstanding.isEmpty();
        }
    }

    /** The client's answers to the questions of the last round; a question it left unanswered fails. */
    public void answer(JsonNode inputResponses) {
        synchronized (outstanding) {
            for (Map.Entry<String, Ask> entry : outstanding.entrySet()) {
                JsonNode answer = inputResponses.get(entry.getKey());
                if (answer instanceof ObjectNode object) {
                    entry.getValue().answer().complete(object);
                } else {
                    entry.getValue().answer().completeExceptionally(ProtocolException.invalidParams("The client did not answer"));
                }
            }
            outstanding.clear();
        }
    }

    /**
     * Waits for what comes next: the upstream's answer (empty: the call is over, its result is in
     * {@link #upstream()}) or its questions, returned as the input-required result for the client;
     * a question the client declared it cannot answer ends the round with -32021.
     */
    public Optional<ObjectNode> next(ObjectNode clientCapabilities) throws InterruptedException {
        Object event = events.take();
        if (event == DONE) {
            return Optional.empty();
        }
        List<Ask> asks = new ArrayList<>();
        asks.add((Ask) event);
        // Questions asked together go to the client together.
        Object more;
        while ((more = events.poll(20, TimeUnit.MILLISECONDS)) != null) {
            if (more == DONE) {
                events.offer(DONE); // seen after these questions are answered
                break;
            }
            asks.add((Ask) more);
        }
        for (Ask ask : asks) {
            String capability = Lifecycle.capabilityFor(ask.method()).orElse("");
            if (!clientCapabilities.has(capability)) {
                // The call needs what this client said it cannot do: the version's own answer for that.
                events.addAll(asks.subList(asks.indexOf(ask) + 1, asks.size()));
                asks.forEach(a -> a.answer().completeExceptionally(ProtocolException.methodNotFound("The client does not offer this")));
                throw ProtocolException.missingClientCapability(capability);
            }
        }
        ObjectNode result = Json.object();
        result.put("resultType", "input_required");
        ObjectNode requests = result.putObject("inputRequests");
        synchronized (outstanding) {
            for (Ask ask : asks) {
                String key = "input-" + (++asked);
                outstanding.put(key, ask);
                ObjectNode request = requests.putObject(key);
                request.put("method", ask.method());
                request.set("params", ask.params());
            }
        }
        token = tokens.next();
        result.put("requestState", token);
        return Optional.of(result);
    }

    /** Ends the call: the upstream's request is cancelled, its open questions fail, the permit is freed. */
    public void abandon(String reason) {
        leave();
        if (released.get() && permit != null) {
            Guard.Permit p = permit;
            permit = null;
            p.withdrawn(); // the client gave up, not the upstream
        }
        synchronized (outstanding) {
            outstanding.values().forEach(a -> a.answer().cancel(true));
            outstanding.clear();
        }
        OutgoingRequest request = upstream;
        if (request != null) {
            request.cancel(reason);
        }
        span.ifPresent(UpstreamSpan::cancelled); // unless the last round ended it already
    }
}
