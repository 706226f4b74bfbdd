package dev.warden.auth;

import dev.warden.core.error.ConfigurationException;

/**
 * An {@code auth:} configuration or an API keys document that cannot be used. The message names
 * the key (as a dotted path) and the form expected; it never repeats a value that could be a
 * credential.
 */
public final class AuthConfigException extends ConfigurationException {
    public AuthConfigException(String message) {
        super(message);
    }
}
