package dev.warden.core.error;

/**
 * The root of every exception Warden defines, one subclass per category of failure. The
 * categories are closed so that a {@code switch} over them is checked by the compiler:
 * <ul>
 *   <li>{@link ToolFailure}: a failure a tool reports, rendered as an {@code isError} result;</li>
 *   <li>{@link ProtocolException}: a JSON-RPC error this side decided to send;</li>
 *   <li>{@link LocalFailure}: something that went wrong on this side of the wire (timeout,
 *       cancellation, closed connection), never to be confused with an error the peer sent;</li>
 *   <li>{@link PeerErrorException}: an error response the peer sent, whose text is untrusted;</li>
 *   <li>{@link TransportException}: the link to the peer could not be made or used (a send on a
 *       closed transport, a process that would not start);</li>
 *   <li>{@link ConfigurationException}: a definition this side was given (configuration, a tool's
 *       schema) that cannot be used.</li>
 * </ul>
 * The last two are open ({@code non-sealed}): their concrete types live beside what raises them,
 * in other packages and modules (a sealed class may only permit classes of its own module).
 */
public abstract sealed class WardenException extends RuntimeException
        permits ToolFailure, ProtocolException, LocalFailure, PeerErrorException, TransportException,
        ConfigurationException {

    protected WardenException(String message, Throwable cause, boolean withStackTrace) {
        super(message, cause, false, withStackTrace);
    }

    /** With a stack trace and suppressed exceptions, as any {@link RuntimeException}. */
    protected WardenException(String message, Throwable cause) {
        super(message, cause);
    }
}
