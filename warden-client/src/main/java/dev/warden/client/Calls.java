package dev.warden.client;

import dev.warden.core.error.IncompatiblePeerException;
import dev.warden.core.error.RequestCancelledException;
import dev.warden.core.json.Json;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import tools.jackson.databind.JsonNode;

/** Waiting for an answer and reading it, the way every blocking call of the client does. */
final class Calls {

    private Calls() {
    }

    /** The answer, or the failure as thrown; an interrupted wait cancels the request. */
    static <T> T join(CompletableFuture<T> future) {
        try {
            return future.get();
        } catch (InterruptedException e) {
            future.cancel(true);
            Thread.currentThread().interrupt();
            throw new RequestCancelledException("Interrupted while waiting for the server");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IllegalStateException(e.getCause());
        }
    }

    /** A server's result as {@code type}; one of another shape is the server's fault. */
    static <T> T parse(JsonNode node, Class<T> type, String what) {
        try {
            return Json.read(node, type);
        } catch (RuntimeException e) {
            throw new IncompatiblePeerException("The server's " + what + " result is malformed");
        }
    }
}
