package dev.warden.core.error;

import java.util.Objects;

/**
 * One reason arguments were rejected: where (a JSON pointer into the arguments) and why. Both
 * parts are trusted text built from the schema; neither ever contains the offending value.
 */
public record Violation(String pointer, String message) {
    public Violation {
        Objects.requireNonNull(pointer, "pointer");
        Objects.requireNonNull(message, "message");
        if (!pointer.isEmpty() && pointer.charAt(0) != '/') {
            throw new IllegalArgumentException("pointer must be empty or start with '/'");
        }
    }

    /**
     * The line shown to the model: {@code /email: must be a valid email address}; a violation of the
     * whole document (empty pointer) is just its message.
     */
    public String line() {
        return pointer.isEmpty() ? message : pointer + ": " + message;
    }
}
