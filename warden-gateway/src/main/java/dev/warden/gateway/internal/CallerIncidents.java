package dev.warden.gateway.internal;

import dev.warden.core.identity.Caller;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * Who the current thread is serving, for the incidents core's recorder writes meanwhile
 * ({@link dev.warden.core.incident.ErrorBoundary#serving}, the one way a caller reaches an
 * incident). The upstreams' pipelines are shared by every client, so their recorders read the
 * caller from here; a connection's own recorder is given its caller directly.
 */
final class CallerIncidents {

    private static final ThreadLocal<Caller> SERVING = new ThreadLocal<>();

    private CallerIncidents() {
    }

    /** The caller the current thread serves, if any. */
    static Optional<Caller> current() {
        return Optional.ofNullable(SERVING.get());
    }

    /** Does the work as serving {@code caller}: incidents recorded meanwhile carry it. */
    static <T> T serving(Optional<Caller> caller, Callable<T> work) throws Exception {
        if (caller.isEmpty()) {
            return work.call();
        }
        Caller before = SERVING.get();
        SERVING.set(caller.get());
        try {
            return work.call();
        } finally {
            if (before == null) {
                SERVING.remove();
            } else {
                SERVING.set(before);
            }
        }
    }
}
