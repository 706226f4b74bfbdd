package dev.warden.spring.boot;

import dev.warden.core.error.ErrorCode;
import dev.warden.core.incident.Incident;
import java.util.EnumMap;
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
        for (ErrorCode code : ErrorCode.values()) {
            counts.put(code, new LongAdder());
        }
    }

    void record(Incident incident) {
        counts.get(incident.code()).increment();
    }

    long count(ErrorCode code) {
        return counts.get(code).sum();
    }
}
