package dev.warden.gateway.config;

import dev.warden.core.error.ConfigurationException;

/**
 * A gateway configuration that cannot be used. The message names the key (as a dotted path) and
 * the form expected; it never repeats a value that could be a credential.
 */
public final class ConfigException extends ConfigurationException {
    public ConfigException(String message) {
        super(message);
    }
}
