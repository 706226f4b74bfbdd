package dev.warden.core.error;

/**
 * Where incidents go. Implementations must never write to the protocol stream, and must not throw:
 * a failing sink must not turn one failure into two.
 */
@FunctionalInterface
public interface IncidentSink {
    void record(Incident incident);

    static IncidentSink stderr() {
        return JsonLinesIncidentSink.stderr();
    }
}
