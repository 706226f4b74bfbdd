package dev.warden.core.session;

import dev.warden.core.error.RequestCancelledException;
import dev.warden.core.json.Json;
import dev.warden.core.jsonrpc.RequestId;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The pending answer to a request this side sent. It completes with the peer's result, with a
 * {@link dev.warden.core.error.PeerErrorException} for the peer's error, or with a
 * {@link dev.warden.core.error.LocalFailure} (timeout, cancellation, closed connection).
 *
 * <p>{@link #cancel(boolean)} sends {@code notifications/cancelled} and completes this future with
 * {@link RequestCancelledException} rather than a bare {@code CancellationException}, so callers
 * catch one family of local failures.
 */
public final class OutgoingRequest extends CompletableFuture<JsonNode> {

    private final RequestId id;
    private final PendingRequests pending;
    /** Told how the request ended before anyone waiting is (a span ends before its caller moves on). */
    private volatile SessionObserver.Ended observer = SessionObserver.Ended.NONE;
    /**
     * Taken by the one completion that wins: every completion passes through {@link #complete} or
     * {@link #completeExceptionally}, so the thread that takes it is the one whose outcome the
     * future holds, and only it tells the observer (before completing, so waiters see the span ended).
     */
    private final AtomicBoolean settled = new AtomicBoolean();

    OutgoingRequest(RequestId id, PendingRequests pending) {
        this.id = id;
        this.pending = pending;
    }

    public RequestId id() {
        return id;
    }

    void observe(SessionObserver.Ended ended) {
        this.observer = ended;
    }

    @Override
    public boolean complete(JsonNode value) {
        if (!settled.compareAndSet(false, true)) {
            return false;
        }
        observed(() -> observer.answered(value));
        return super.complete(value);
    }

    @Override
    public boolean completeExceptionally(Throwable failure) {
        if (!settled.compareAndSet(false, true)) {
            return false;
        }
        observed(() -> observer.failed(failure));
        return super.completeExceptionally(failure);
    }

    private static void observed(Runnable tell) {
        try {
            tell.run();
        } catch (RuntimeException e) {
            System.getLogger(Session.class.getName()).log(System.Logger.Level.WARNING,
                    "the session observer failed at an answer", e);
        }
    }

    /** Cancels with a reason sent to the peer; the reason must be trusted text. */
    public boolean cancel(String reason) {
        boolean won = completeExceptionally(new RequestCancelledException("The request was cancelled locally"));
        if (won) {
            pending.abandon(id, reason);
        }
        return won;
    }

    /**
     * Waits for the answer as a blocking caller does (a tool asking its client, a proxy putting an
     * upstream's question to its client): the result as an object (anything else as an empty one),
     * or the failure as it was raised; interrupted, the request is cancelled with
     * {@code reasonIfInterrupted} (trusted text) and the interrupt rethrown.
     */
    public ObjectNode awaitObject(String reasonIfInterrupted) throws Exception {
        try {
            return get() instanceof ObjectNode o ? o : Json.object();
        } catch (InterruptedException e) {
            cancel(reasonIfInterrupted);
            throw e;
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        return cancel("Cancelled by the client");
    }

    @Override
    public <U> CompletableFuture<U> newIncompleteFuture() {
        return new CompletableFuture<>();
    }
}
