package dev.warden.server;

import dev.warden.core.mcp.Logging;
import tools.jackson.databind.node.ObjectNode;

/** What a running tool can do besides return: report progress, notice cancellation, log to the client. */
public interface ToolContext extends InputContext {

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
     * {@link dev.warden.core.error.RequestTimeoutException}. In 2026-07-28, where a server sends
     * the client no requests, it is an {@code input} of the call keyed {@code request-N} (the
     * N-th such request of the run): the round ends with an input-required result and the tool
     * runs again on the retry, so the tool must make the same requests in the same order.
     */
    ObjectNode requestClient(String method, ObjectNode params) throws Exception;

    /**
     * Ends the HTTP connection carrying this call's response stream without ending the stream: the
     * client reconnects and resumes it (Streamable HTTP polling, SEP-1699). False on stdio.
     */
    boolean closeStream();

}
