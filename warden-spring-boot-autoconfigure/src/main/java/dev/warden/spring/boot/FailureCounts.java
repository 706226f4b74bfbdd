package dev.warden.spring.boot;

import dev.warden.core.error.ErrorCode;
import dev.warden.core.incident.Incident;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Set;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts the server's failures by code as they are recorded: every failure has an incident, so the
 * incident stream is the one place to count them. Added beside the application's sink, never instead
 * (not an {@code IncidentSink} bean itself, which would take the store's place).
 */
final class FailureCounts {

    private final Map<ErrorCode, LongAdder> counts = new EnumMap<>(ErrorCode.class);

    FailureCounts() {
        // Every code, counted from zero (a meter per code from the start); EnumSet, since reading
        // codes by values() is the classifier's alone (ArchitectureTest).
        for (ErrorCode code : EnumSet.allOf(ErrorCode.class)) {
            counts.put(code, new LongAdder());
        }
    }

    void record(Incident incident) {
        counts.get(incident.code()).increment();
    }

    /** The codes counted: all of them. */
    Set<ErrorCode> codes() {
        return counts.keySet();
    }

    long count(ErrorCode code) {
        return counts.get(code).sum();
    }
}
