package dev.warden.core.transport;

import java.util.List;

/**
 * Where a server process's stderr goes ({@link ProcessTransport}): each line as it comes, and, when
 * the process ends without being asked to (it crashed, or could not start at all: a missing
 * directory, a package that does not exist), its last lines once more with its exit code. A log
 * can then keep a healthy server's chatter quiet and still say loudly why one died.
 */
@FunctionalInterface
public interface StderrSink {

    /** One line the process wrote to stderr (without its line end, cut at {@link ProcessTransport#MAX_STDERR_LINE}). */
    void line(String line);

    /**
     * The process exited before it was asked to stop.
     *
     * @param lastLines its last lines on stderr, oldest first, at most {@link ProcessTransport#TAIL_LINES}
     */
    default void exited(int exitCode, List<String> lastLines) {
    }
}
