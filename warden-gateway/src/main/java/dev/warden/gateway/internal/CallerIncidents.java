package dev.warden.gateway.internal;

import dev.warden.core.identity.Caller;
import dev.warden.core.incident.Incident;
import dev.warden.core.incident.IncidentSink;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * The incident store as the gateway writes to it: each incident recorded while serving an
 * authenticated caller carries its subject and OAuth client id, so the operator who looks a ref
 * up knows who met the failure. Only the store learns them; what the peer sees (the ref) is the
 * same. The upstreams' pipelines are shared by every client, so who is being served is said by
 * the thread that serves the request ({@link #serving}); a connection's own session stamps its
 * incidents with its caller ({@link #of}).
 */
public final class CallerIncidents implements IncidentSink {

    private static final ThreadLocal<Caller> SERVING = new ThreadLocal<>();

    private final IncidentSink store;
    private final Optional<Caller> fixed;

    private CallerIncidents(IncidentSink store, Optional<Caller> fixed) {
        this.store = store;
        this.fixed = fixed;
    }

    /** The store, stamping what is recorded while {@link #serving} a caller. */
    public static IncidentSink stamping(IncidentSink store) {
        return new CallerIncidents(store, Optional.empty());
    }

    /** The store, stamping everything with this caller (one connection's own incidents). */
    static IncidentSink of(IncidentSink store, Caller caller) {
        return new CallerIncidents(store, Optional.of(caller));
    }

    /** Does the work as serving {@code caller}: incidents it records through {@link #stamping} sinks carry it. */
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

    @Override
    public void record(Incident incident) {
        Caller caller = fixed.orElseGet(SERVING::get);
        store.record(caller == null ? incident : incident.withCaller(caller));
    }

    @Override
    public boolean recording() {
        return store.recording();
    }
}
