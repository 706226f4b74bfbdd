package dev.warden.core.incident;

import dev.warden.core.error.ErrorCode;
import dev.warden.core.error.Ref;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Where incidents are kept for the operator: every failure's original text, findings and context,
 * found by the ref the peer was given. The embedded default is {@link FileIncidentStore}; a
 * PostgreSQL store comes with the scale-out work.
 */
public interface IncidentStore extends IncidentSink, AutoCloseable {

    /** Appends an incident. Must not throw: a store failure is logged, never turned into a second failure. */
    @Override
    void record(Incident incident);

    Optional<Incident> find(Ref ref);

    /** Whether the last write succeeded: false while the store cannot write (a full or read-only disk). */
    @Override
    default boolean recording() {
        return true;
    }

    /** Incidents at or after {@code since}, newest first, optionally of one code, at most {@code limit}. */
    default List<Incident> list(Instant since, Optional<ErrorCode> code, int limit) {
        return list(since, Optional.empty(), code, limit);
    }

    /**
     * Incidents at or after {@code since} and before {@code until} when given, newest first,
     * optionally of one code, at most {@code limit}: the newest of that period, so an operator who
     * knows when a client failed reads that hour, not the newest since.
     */
    List<Incident> list(Instant since, Optional<Instant> until, Optional<ErrorCode> code, int limit);

    @Override
    void close();
}
