package dev.warden.core.session;

import dev.warden.core.jsonrpc.RequestId;
import java.util.Optional;
import java.util.OptionalDouble;
import tools.jackson.databind.JsonNode;

/** What a handler knows about the request it is answering, and what it may do meanwhile. */
public interface RequestContext {

    RequestId id();

    String method();

    Optional<JsonNode> params();

    /** The session the request came in on, to send notifications or requests of its own. */
    Session session();

    /** True once the peer cancelled this request (the handler thread is interrupted as well). */
    boolean cancelled();

    /**
     * Runs {@code action} once if the peer cancels this request (at once if it already has): how
     * an {@link AsyncRequestHandler}, which has no thread to interrupt, hears of it. Where
     * requests cannot be cancelled, nothing happens.
     */
    default void onCancel(Runnable action) {
    }

    /**
     * Reports progress if the caller asked for it (sent a progress token) and the request is still
     * running; otherwise does nothing. Values that do not increase are dropped, as the spec requires
     * progress to increase.
     */
    void progress(double progress, OptionalDouble total, Optional<String> message);

    /**
     * Ends the connection carrying this request's response stream without ending the stream, so the
     * client reconnects and resumes it (Streamable HTTP polling). False where that means nothing.
     */
    boolean closeStream();
}
