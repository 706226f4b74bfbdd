package dev.warden.core.error;

/**
 * The server refused this client's credentials and the client could not obtain ones it accepts:
 * discovery or registration failed, the user agent returned no code, the token endpoint refused,
 * or the server kept asking for scopes the client already holds. Raised locally, and never
 * retried by reconnecting: asking again would only repeat the refusal (and the user's consent).
 * The message names the step that failed, never a token, secret or the server's own text.
 */
public final class AuthorizationFailedException extends LocalFailure {
    public AuthorizationFailedException(String message, Throwable cause) {
        super(message, cause);
    }
}
