package dev.warden.core.session;

import dev.warden.core.error.ErrorCode;
import dev.warden.core.error.ProtocolException;
import dev.warden.core.json.Json;
import dev.warden.core.jsonrpc.JsonRpcMessage;
import dev.warden.core.jsonrpc.RequestId;
import dev.warden.core.mcp.Ping;
import java.util.ArrayList;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import tools.jackson.databind.JsonNode;

/**
 * The peer's requests: each goes to its handler (on a virtual thread of its own, inline on the
 * reader, or asynchronously), at most {@code maxConcurrent} at once, and gets exactly one answer
 * unless the peer cancels it. Those running are kept by id, so a cancellation finds its handler.
 */
final class IncomingRequests {

    private static final System.Logger LOG = System.getLogger(Session.class.getName());

    /** The routes of one session's requests: which handler answers which method. */
    record Handlers(Map<String, RequestHandler> plain, Map<String, AsyncRequestHandler> async, Set<String> inline,
                    Optional<RequestHandler> fallback) {
        Handlers {
            plain = Map.copyOf(plain);
            async = Map.copyOf(async);
            inline = Set.copyOf(inline);
        }
    }

    private final Session session;
    private final Handlers handlers;
    private final Answers answers;
    private final int maxConcurrent;
    private final BooleanSupplier closed;
    private final Map<RequestId, InFlight> inFlight = new ConcurrentHashMap<>();
    /** Requests from the peer refused because {@link #maxConcurrent} were running. */
    private final AtomicLong refused = new AtomicLong();
    private volatile Session.RequestGate gate = Session.RequestGate.OPEN;

    IncomingRequests(Session session, Handlers handlers, Answers answers, int maxConcurrent, BooleanSupplier closed) {
        this.session = session;
        this.handlers = handlers;
        this.answers = answers;
        this.maxConcurrent = maxConcurrent;
        this.closed = closed;
    }

    void gate(Session.RequestGate gate) {
        this.gate = Objects.requireNonNull(gate, "gate");
    }

    /** Handles one request; the future holds its answer, empty if it gets none (cancelled, or the session closed). */
    CompletableFuture<Optional<JsonRpcMessage>> handle(JsonRpcMessage.Request request,
            SessionObserver.Incoming watch) {
        if (closed.getAsBoolean()) {
            watch.closed(); // no answer goes: the session closed, the peer cancelled nothing
            return CompletableFuture.completedFuture(Optional.empty());
        }
        RequestHandler handler = Ping.METHOD.equals(request.method())
                ? handlers.plain().getOrDefault(Ping.METHOD, ctx -> Json.object())
                : handlers.plain().getOrDefault(request.method(), handlers.fallback().orElse(null));
        AsyncRequestHandler async = handlers.async().get(request.method());
        if (handler == null && async == null) {
            // The method name is the caller's input: it is not repeated back.
            return refuse(request, ProtocolException.methodNotFound());
        }
        Optional<ProtocolException> closedToIt = gate.check(request);
        if (closedToIt.isPresent()) {
            return refuse(request, closedToIt.get());
        }
        if (inFlight.size() >= maxConcurrent && !Ping.METHOD.equals(request.method())) {
            // A peer asking faster than it is answered (server-to-client requests in a loop) holds a
            // thread per request: beyond the bound it is refused at once, with a ref.
            if (refused.getAndIncrement() % 1_000 == 0) {
                LOG.log(System.Logger.Level.WARNING, "requests refused: {0} from the peer are in progress "
                        + "(maxConcurrentRequests)", maxConcurrent);
            }
            return refuse(request, ProtocolException.internal(
                    "Too many requests in progress on this connection; retry later", ErrorCode.RATE_LIMITED));
        }
        InFlight context = new InFlight(session, request, watch);
        if (inFlight.putIfAbsent(request.id(), context) != null) {
            return refuse(request, ProtocolException.invalidRequest(
                    "Invalid request: a request with this id is already in progress"));
        }
        if (async != null) {
            Optional<CompletableFuture<Optional<JsonRpcMessage>>> answered = handleAsync(async, context, request);
            if (answered.isPresent()) {
                return answered.get();
            }
            if (handler == null) {
                inFlight.remove(request.id(), context);
                return refuse(request, ProtocolException.methodNotFound());
            }
        }
        if (handlers.inline().contains(request.method())) {
            return CompletableFuture.completedFuture(handleInline(handler, context, request));
        }
        CompletableFuture<Optional<JsonRpcMessage>> result = new CompletableFuture<>();
        Thread thread = Thread.ofVirtual().name("warden-handler").unstarted(() -> {
            Handling.enter(session, request.id());
            Optional<JsonRpcMessage> reply = run(handler, context, request);
            // Leave the table before answering: the peer may reuse the id as soon as it has the answer.
            inFlight.remove(request.id(), context);
            result.complete(reply);
        });
        context.bind(thread);
        thread.start();
        return result;
    }

    /** The peer cancelled {@code id} (never {@code initialize}, which the spec says it must not cancel). */
    void cancel(RequestId id) {
        InFlight context = inFlight.get(id);
        if (context != null && !"initialize".equals(context.method())) {
            context.cancel();
        }
    }

    /** The session closed: every handler still running is cancelled. */
    void cancelAll() {
        for (InFlight context : new ArrayList<>(inFlight.values())) {
            context.watch().closed();
            context.cancel();
        }
    }

    int size() {
        return inFlight.size();
    }

    long refused() {
        return refused.get();
    }

    private CompletableFuture<Optional<JsonRpcMessage>> refuse(JsonRpcMessage.Request request, ProtocolException e) {
        return CompletableFuture.completedFuture(Optional.of(answers.refusal(Optional.of(request.id()),
                request.method(), e)));
    }

    /** Runs on the reader thread, before the next message is read (for {@code initialize}). */
    private Optional<JsonRpcMessage> handleInline(RequestHandler handler, InFlight context,
            JsonRpcMessage.Request request) {
        context.bind(Thread.currentThread());
        Optional<JsonRpcMessage> reply = Handling.during(session, request.id(), () -> run(handler, context, request));
        inFlight.remove(request.id(), context);
        Thread.interrupted(); // a cancel aimed at the handler must not leak into the reader thread
        return reply;
    }

    private Optional<JsonRpcMessage> run(RequestHandler handler, InFlight context, JsonRpcMessage.Request request) {
        JsonNode value;
        try {
            value = context.watch().during(() -> handler.handle(context));
        } catch (Throwable t) {
            return answers.of(context, request, null, t);
        }
        return answers.of(context, request, value, null);
    }

    /**
     * Runs an async handler on this thread (the transport's, which read the request); the answer
     * goes out when its stage completes. Empty when the handler left the request to the ordinary one.
     */
    private Optional<CompletableFuture<Optional<JsonRpcMessage>>> handleAsync(AsyncRequestHandler handler, InFlight context,
            JsonRpcMessage.Request request) {
        Optional<CompletionStage<JsonNode>> taken = Handling.during(session, request.id(), () -> {
            try {
                return context.watch().during(() -> handler.handle(context));
            } catch (Throwable t) {
                return Optional.of(CompletableFuture.<JsonNode>failedFuture(t));
            }
        });
        if (taken.isEmpty()) {
            return Optional.empty(); // the ordinary handler takes it, on a thread of its own
        }
        CompletionStage<JsonNode> stage = taken.get();
        CompletableFuture<Optional<JsonRpcMessage>> result = new CompletableFuture<>();
        stage.whenComplete((value, thrown) -> {
            Throwable cause = thrown instanceof CompletionException c && c.getCause() != null ? c.getCause() : thrown;
            Optional<JsonRpcMessage> reply = answers.of(context, request, value, cause);
            inFlight.remove(request.id(), context);
            result.complete(reply);
        });
        return Optional.of(result);
    }
}
