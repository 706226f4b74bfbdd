package dev.warden.core.incident;

import dev.warden.core.error.ErrorCode;
import java.util.List;
import java.util.ServiceLoader;

/**
 * Hook for error trackers (Sentry and the like). Called for system failures only
 * ({@link ErrorCode#systemFailure()}): a caller's bad arguments are not an operator's problem.
 * Implementations are found with {@link ServiceLoader} or registered on the server builder.
 */
public interface ErrorReporter {

    void report(Incident incident, Throwable cause);

    static List<ErrorReporter> discovered() {
        return ServiceLoader.load(ErrorReporter.class).stream().map(ServiceLoader.Provider::get).toList();
    }
}
