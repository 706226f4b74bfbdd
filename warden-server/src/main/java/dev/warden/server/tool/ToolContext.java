package dev.warden.server.tool;

import dev.warden.core.mcp.Logging;
import tools.jackson.databind.node.ObjectNode;

/** What a running tool can do besides return: report progress, notice cancellation, log to the client. */
public interface ToolContext {

    /** Reports progress when the caller asked for it; a no-op otherwise. Values must increase. */
    void progress(double progress, double total, String message);

    /** True once the caller cancelled; the handler's thread is interrupted too. */
    boolean cancelled();

    /**
     * Throws {@link InterruptedException} if the caller cancelled, for loops that do not block and
     * so would not notice the interrupt.
     */
    default void checkCancelled() throws InterruptedException {
        if (cancelled() || Thread.currentThread().isInterrupted()) {
            throw new InterruptedException("cancelled by the caller");
        }
    }

    /** Sends a log message to the client if its level allows. The text must be trusted. */
    void log(Logging.Level level, String trustedMessage);

    /**
     * Sends a request to the client and waits for its answer: {@code sampling/createMessage},
     * {@code elicitation/create} or {@code roots/list}, which the client must have declared
     * (sampling, elicitation, roots) in its capabilities. Cancelling the tool call cancels this
     * request too. A refusal or error from the client arrives as
     * {@link dev.warden.core.error.PeerErrorException}, a timeout as
     * {@link dev.warden.core.error.RequestTimeoutException}.
     */
    ObjectNode requestClient(String method, ObjectNode params) throws Exception;

    /**
     * Ends the HTTP connection carrying this call's response stream without ending the stream: the
     * client reconnects and resumes it (Streamable HTTP polling, SEP-1699). False on stdio.
     */
    boolean closeStream();

    /**
     * Input from the client, named by {@code key} (a name the tool chooses, stable across rounds):
     * in 2026-07-28 (multi round-trip requests) the answer the client sent with this retry, or, if
     * it has not, this round ends with an input-required result asking for it, and the tool runs
     * again from the start when the client retries with the answer (answers of earlier rounds
     * travel in a signed {@code requestState}). In the session-based versions, the same request is
     * sent to the client and awaited. Do not catch what this throws to ask.
     */
    ObjectNode input(String key, String method, ObjectNode params) throws Exception;

    /**
     * Several inputs in one round: {@code requests} maps keys to {@code {"method": …, "params": …}}.
     * Returns every answer once the client has given them all.
     */
    java.util.Map<String, ObjectNode> inputs(java.util.Map<String, ObjectNode> requests) throws Exception;

    /**
     * The capabilities the client declared: at initialize, or (2026-07-28) in this request's
     * {@code _meta}. A tool asks only for input the client can give.
     */
    java.util.Optional<ObjectNode> clientCapabilities();
}
