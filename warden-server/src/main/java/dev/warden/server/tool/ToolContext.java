package dev.warden.server.tool;

import dev.warden.core.mcp.Logging;

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
}
