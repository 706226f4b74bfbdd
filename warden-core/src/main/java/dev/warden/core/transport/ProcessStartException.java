package dev.warden.core.transport;

import dev.warden.core.error.TransportException;
import java.io.IOException;
import java.util.Objects;

/**
 * A server process could not be started at all (no such program, not executable): trying the same
 * command again at once cannot help, unlike a connection that was refused.
 */
public final class ProcessStartException extends TransportException {

    public ProcessStartException(String message, IOException cause) {
        super(message, Objects.requireNonNull(cause));
    }

    /** Why the process could not be started, as the operating system said. */
    @Override
    public IOException getCause() {
        return (IOException) super.getCause();
    }
}
