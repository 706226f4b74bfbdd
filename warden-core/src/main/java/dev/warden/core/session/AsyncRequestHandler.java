package dev.warden.core.session;

import java.util.Optional;
import java.util.concurrent.CompletionStage;
import tools.jackson.databind.JsonNode;

/**
 * A request handler that answers later without a thread of its own: it runs on the thread that
 * read the request, must return at once (never block), and the answer is sent when the stage
 * completes, from the thread that completes it, mapped as a {@link RequestHandler}'s result or
 * exception would be. For a proxy's forwarding, whose work is a write now and a read later: no
 * thread is woken for it in between. A cancelled request is not interrupted (it has no thread):
 * the handler hears of it through {@link RequestContext#onCancel}.
 *
 * <p>Returning empty hands the request to the method's ordinary handler ({@link
 * Session.Builder#onRequest}), on a thread of its own: the async handler takes the common case
 * and leaves the rest.
 */
@FunctionalInterface
public interface AsyncRequestHandler {
    Optional<CompletionStage<JsonNode>> handle(RequestContext context) throws Exception;
}
