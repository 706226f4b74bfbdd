package dev.warden.core.error;

/**
 * The link to the peer could not be made or used: a send on a transport that is closed or whose
 * write failed ({@code TransportClosedException} and its kinds, in the transport package), a server
 * process that could not be started. Raised by transports, which live outside this package (and,
 * for HTTP, outside this module), so the category is open to them.
 */
public abstract non-sealed class TransportException extends WardenException {

    protected TransportException(String message, Throwable cause) {
        super(message, cause);
    }

    /** For a refusal whose stack says nothing its message does not (a step that failed, a cap reached). */
    protected TransportException(String message, Throwable cause, boolean withStackTrace) {
        super(message, cause, withStackTrace);
    }
}
