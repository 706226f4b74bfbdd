package dev.warden.gateway.config;

/**
 * A gateway configuration that cannot be used. The message names the key (as a dotted path) and
 * the form expected; it never repeats a value that could be a credential.
 */
public final class ConfigException extends IllegalArgumentException {
    public ConfigException(String message) {
        super(message);
    }
}
