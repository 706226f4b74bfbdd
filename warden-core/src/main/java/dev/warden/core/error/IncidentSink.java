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

    /** Records to every sink; one failing sink does not keep the others from recording. */
    static IncidentSink all(IncidentSink... sinks) {
        java.util.List<IncidentSink> list = java.util.List.of(sinks);
        return incident -> {
            for (IncidentSink sink : list) {
                try {
                    sink.record(incident);
                } catch (RuntimeException e) {
                    // keep going: the next sink may still work
                }
            }
        };
    }
}
