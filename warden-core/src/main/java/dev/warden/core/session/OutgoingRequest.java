package dev.warden.core.session;

import dev.warden.core.error.RequestCancelledException;
import dev.warden.core.jsonrpc.RequestId;
import java.util.concurrent.CompletableFuture;
import tools.jackson.databind.JsonNode;

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

    OutgoingRequest(RequestId id, PendingRequests pending) {
        this.id = id;
        this.pending = pending;
    }

    public RequestId id() {
        return id;
    }

    /** Cancels with a reason sent to the peer; the reason must be trusted text. */
    public boolean cancel(String reason) {
        boolean won = completeExceptionally(new RequestCancelledException("The request was cancelled locally"));
        if (won) {
            pending.abandon(id, reason);
        }
        return won;
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
