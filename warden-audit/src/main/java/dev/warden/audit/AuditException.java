package dev.warden.audit;

import dev.warden.core.error.TransportException;

/**
 * The audit could not be made at all: the server did not start, could not be reached, or did not
 * initialize. A server that initialized and then failed is a finding, never this. The message names
 * the target by its description only (no credential); the cause says what the client saw.
 */
public final class AuditException extends TransportException {

    public AuditException(String message, Throwable cause) {
        super(message, cause);
    }
}
