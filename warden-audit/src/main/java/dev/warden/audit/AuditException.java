package dev.warden.audit;

/**
 * The audit could not be made at all (the server did not start, or did not initialize). A server
 * that initialized and then failed is a finding, never this. The message names the target by its
 * description only: no credential.
 */
public final class AuditException extends RuntimeException {

    public AuditException(String message, Throwable cause) {
        super(message, cause);
    }
}
