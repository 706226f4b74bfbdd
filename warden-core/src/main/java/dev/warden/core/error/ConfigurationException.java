package dev.warden.core.error;

/**
 * A definition this side was given cannot be used: a gateway configuration, a tool's input schema
 * whose annotations break the spec's rules. The message says which rule; it never repeats a value
 * that could be a credential. Open, since each module checks its own definitions.
 */
public abstract non-sealed class ConfigurationException extends WardenException {

    protected ConfigurationException(String message) {
        super(message, null);
    }
}
