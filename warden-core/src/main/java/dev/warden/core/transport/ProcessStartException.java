package dev.warden.core.transport;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * A server process could not be started at all (no such program, not executable): trying the same
 * command again at once cannot help, unlike a connection that was refused.
 */
public final class ProcessStartException extends UncheckedIOException {

    public ProcessStartException(String message, IOException cause) {
        super(message, cause);
    }
}
