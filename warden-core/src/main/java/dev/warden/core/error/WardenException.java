package dev.warden.core.error;

/**
 * The root of every exception Warden defines. The categories are closed so that a {@code switch}
 * over them is checked by the compiler:
 * <ul>
 *   <li>{@link ToolFailure}: a failure a tool reports, rendered as an {@code isError} result;</li>
 *   <li>{@link ProtocolException}: a JSON-RPC error this side decided to send;</li>
 *   <li>{@link LocalFailure}: something that went wrong on this side of the wire (timeout,
 *       cancellation, closed connection), never to be confused with an error the peer sent;</li>
 *   <li>{@link PeerErrorException}: an error response the peer sent, whose text is untrusted.</li>
 * </ul>
 */
public abstract sealed class WardenException extends RuntimeException
        permits ToolFailure, ProtocolException, LocalFailure, PeerErrorException {

    protected WardenException(String message, Throwable cause, boolean withStackTrace) {
        super(message, cause, false, withStackTrace);
    }
}
