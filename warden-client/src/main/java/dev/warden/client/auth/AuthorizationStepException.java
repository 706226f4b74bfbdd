package dev.warden.client.auth;

import dev.warden.core.error.TransportException;

/**
 * A step of the authorization flow failed; {@link OAuth} turns it into the transport's
 * {@code UnauthorizedException}. The message names the step, never a token, secret or URL.
 */
final class AuthorizationStepException extends TransportException {
    AuthorizationStepException(String message) {
        super(message, null, false);
    }

    AuthorizationStepException(String message, Throwable cause) {
        super(message, cause, false);
    }
}
