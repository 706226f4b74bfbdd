package dev.warden.core.session;

import dev.warden.core.error.AuthorizationFailedException;
import dev.warden.core.error.ConnectionClosedException;
import dev.warden.core.error.LocalFailure;
import dev.warden.core.error.MessageTooLargeException;
import dev.warden.core.error.PeerErrorException;
import dev.warden.core.error.RequestTimeoutException;
import dev.warden.core.jsonrpc.JsonRpcMessage;
import dev.warden.core.jsonrpc.RequestId;
import dev.warden.core.mcp.Cancellation;
import dev.warden.core.mcp.Progress;
import dev.warden.core.transport.Route;
import dev.warden.core.transport.SendTimeoutException;
import dev.warden.core.transport.SessionExpiredException;
import dev.warden.core.transport.TransportClosedException;
import dev.warden.core.transport.UnauthorizedException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import tools.jackson.databind.JsonNode;

/**
 * The requests this side sent and still waits on, by id. Each ends exactly once: in the peer's
 * answer, or in a {@link LocalFailure} (its timeout, a local cancellation, the transport failing or
 * closing). Its timeout is armed in {@link Deadlines} before it is sent, reset by progress where
 * asked, never past its maximum total.
 */
final class PendingRequests {

    private static final System.Logger LOG = System.getLogger(Session.class.getName());

    private final Session session;
    private final Outbox outbox;
    private final Deadlines deadlines;
    private final BooleanSupplier closed;
    private final Map<RequestId, Pending> pending = new ConcurrentHashMap<>();
    private final AtomicLong nextId = new AtomicLong(1);
    private final SessionObserver observer;

    PendingRequests(Session session, Outbox outbox, Deadlines deadlines, BooleanSupplier closed,
            SessionObserver observer) {
        this.observer = observer;
        this.session = session;
        this.outbox = outbox;
        this.deadlines = deadlines;
        this.closed = closed;
    }

    /** Sends a request and returns its answer to come; a closed session fails it at once. */
    OutgoingRequest send(String method, JsonNode params, RequestOptions options, Route route) {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(options, "options");
        RequestId id = RequestId.of(nextId.getAndIncrement());
        OutgoingRequest future = new OutgoingRequest(id, this);
        if (closed.getAsBoolean()) {
            future.completeExceptionally(new ConnectionClosedException("The connection is closed"));
            return future;
        }
        Optional<JsonNode> body = Optional.ofNullable(params);
        if (options.wantsProgress()) {
            body = Optional.of(Progress.withToken(body, id));
        }
        // Observed before its timer is armed: a short timeout may fire at once, and must end the span too.
        JsonRpcMessage.Request request = observed(new JsonRpcMessage.Request(id, method, body, Map.of()), future);
        Pending p = new Pending(future, options, deadlines.now());
        pending.put(id, p);
        p.arm(options.timeout());
        try {
            // Armed first: a peer that reads nothing holds this at most until the request times out.
            outbox.request(request, route, future);
        } catch (TransportClosedException e) {
            pending.remove(id);
            p.disarm();
            future.completeExceptionally(notSent(e));
        }
        if (closed.getAsBoolean() && pending.remove(id) != null) {
            future.completeExceptionally(new ConnectionClosedException("The connection is closed"));
        }
        return future;
    }

    /** The request as the observer would have it written; it hears how {@code future} ends. */
    private JsonRpcMessage.Request observed(JsonRpcMessage.Request request, OutgoingRequest future) {
        if (observer == SessionObserver.NONE) {
            return request;
        }
        try {
            SessionObserver.Outgoing outgoing = observer.sending(request);
            future.observe(outgoing.ended());
            return outgoing.request();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "the session observer failed; the request goes unobserved", e);
            return request;
        }
    }

    /** The peer's answer: the request it names ends with it; an answer nobody waits for is dropped. */
    void answer(JsonRpcMessage.Response response) {
        Optional<RequestId> id = switch (response) {
            case JsonRpcMessage.Success s -> Optional.of(s.id());
            case JsonRpcMessage.Failure f -> f.id();
        };
        Pending p = id.map(pending::remove).orElse(null);
        if (p == null) {
            LOG.log(System.Logger.Level.WARNING, "dropped a response with an unknown id");
            return;
        }
        p.disarm();
        switch (response) {
            case JsonRpcMessage.Success s -> p.future.complete(s.result());
            case JsonRpcMessage.Failure f -> p.future.completeExceptionally(new PeerErrorException(f.error()));
        }
    }

    /**
     * A frame that is no valid message but reads as the answer to {@code id}: that request fails
     * now, as the peer's parse error, rather than waiting out its timeout. False if nothing waits on it.
     */
    boolean unreadableAnswer(RequestId id) {
        Pending p = take(id);
        if (p == null) {
            return false;
        }
        LOG.log(System.Logger.Level.WARNING, "the peer answered a request with a frame that is not valid UTF-8 JSON");
        p.future.completeExceptionally(PeerErrorException.unreadableAnswer());
        return true;
    }

    /** The answer to {@code id} was too large to read: the request fails at once. */
    void oversizedAnswer(RequestId id) {
        Pending p = take(id);
        if (p != null) {
            p.future.completeExceptionally(new MessageTooLargeException(
                    "The peer's answer exceeds the maximum message size"));
        }
    }

    /**
     * Why a request the transport refused at once fails: an expired session is the one case a client
     * repairs by itself (a new session, the call once more); any other refusal closes this request.
     */
    private static ConnectionClosedException notSent(TransportClosedException refused) {
        return switch (refused) {
            case SessionExpiredException e -> new ConnectionClosedException("The server ended the session", e, true);
            case UnauthorizedException e -> new ConnectionClosedException("The connection is closed", e, false);
            case SendTimeoutException e -> new ConnectionClosedException("The connection is closed", e, false);
            case TransportClosedException e -> new ConnectionClosedException("The connection is closed", e, false);
        };
    }

    /** A request of ours never reached the peer (the transport sent it asynchronously and failed). */
    void sendFailed(RequestId id, TransportClosedException cause) {
        Pending p = take(id);
        if (p != null) {
            p.future.completeExceptionally(switch (cause) {
                case SessionExpiredException e -> new ConnectionClosedException("The server ended the session", e, true);
                case UnauthorizedException e -> new AuthorizationFailedException(e.getMessage(), e.getCause());
                // The peer read nothing in time, or the connection went: either way it is closed to this request.
                case SendTimeoutException e -> new ConnectionClosedException("The connection is closed", e, false);
                case TransportClosedException e -> new ConnectionClosedException("The connection is closed", e, false);
            });
        }
    }

    /** Progress the peer reports on a request of ours: it goes to the request's listener. */
    void progress(Optional<JsonNode> params) {
        Optional<RequestId> token = params.flatMap(p -> RequestId.fromJson(p.get("progressToken")));
        if (token.isEmpty()) {
            return;
        }
        Pending p = pending.get(token.get());
        if (p == null) {
            return;
        }
        JsonNode body = params.get();
        JsonNode progress = body.get("progress");
        if (progress == null || !progress.isNumber()) {
            return;
        }
        JsonNode total = body.get("total");
        JsonNode message = body.get("message");
        p.onProgress(new Progress.Params(token.get().toJson(), progress.doubleValue(),
                total != null && total.isNumber() ? OptionalDouble.of(total.doubleValue()) : OptionalDouble.empty(),
                message != null && message.isString() ? Optional.of(message.stringValue()) : Optional.empty()));
    }

    /** Called by {@link OutgoingRequest#cancel}: stop waiting and tell the peer. */
    void abandon(RequestId id, String reason) {
        if (take(id) != null) {
            outbox.notifyQuietly(Cancellation.NOTIFICATION, Cancellation.params(id, reason), Handling.routeFor(session));
        }
    }

    /** The connection ended: every request still waiting fails. */
    void failAll() {
        for (RequestId id : new ArrayList<>(pending.keySet())) {
            Pending p = take(id);
            if (p != null) {
                p.future.completeExceptionally(new ConnectionClosedException(
                        "The connection closed before the peer answered"));
            }
        }
    }

    int size() {
        return pending.size();
    }

    /** The request waiting on {@code id}, no longer waiting and its timeout disarmed; null if none. */
    private Pending take(RequestId id) {
        Pending p = pending.remove(id);
        if (p != null) {
            p.disarm();
        }
        return p;
    }

    /** One request waiting: its future, its options, and when it was sent (on the deadlines' clock). */
    private final class Pending implements Deadlines.Expiring {
        final OutgoingRequest future;
        final RequestOptions options;
        final long startNanos;

        Pending(OutgoingRequest future, RequestOptions options, long startNanos) {
            this.future = future;
            this.options = options;
            this.startNanos = startNanos;
        }

        void arm(Duration idle) {
            long left = options.effectiveMaxTotal().toNanos() - (deadlines.now() - startNanos);
            deadlines.arm(this, Math.min(idle.toNanos(), Math.max(0, left)));
        }

        void disarm() {
            deadlines.disarm(this);
        }

        @Override
        public void expire() {
            boolean total = deadlines.now() - startNanos >= options.effectiveMaxTotal().toNanos();
            String what = total ? "maximum total timeout" : "timeout";
            if (future.completeExceptionally(new RequestTimeoutException("No response within the " + what))) {
                abandon(future.id(), "Request timed out");
            }
        }

        void onProgress(Progress.Params progress) {
            if (options.resetTimeoutOnProgress()) {
                arm(options.timeout());
            }
            options.onProgress().ifPresent(listener -> {
                try {
                    listener.accept(progress);
                } catch (RuntimeException e) {
                    LOG.log(System.Logger.Level.WARNING, "progress listener failed", e);
                }
            });
        }
    }
}
