package dev.warden.core.incident;

/**
 * Where incidents go. Implementations must never write to the protocol stream, and must not throw:
 * a failing sink must not turn one failure into two.
 */
@FunctionalInterface
public interface IncidentSink {
    void record(Incident incident);

    /**
     * Whether incidents are being kept: false while a store cannot write (a full or read-only
     * disk). A gateway set to fail closed refuses calls then.
     */
    default boolean recording() {
        return true;
    }

    static IncidentSink stderr() {
        return JsonLinesIncidentSink.stderr();
    }

    /**
     * Records to every sink; one failing sink does not keep the others from recording. Recording
     * while every sink is.
     */
    static IncidentSink all(IncidentSink... sinks) {
        java.util.List<IncidentSink> list = java.util.List.of(sinks);
        return new IncidentSink() {
            @Override
            public void record(Incident incident) {
                for (IncidentSink sink : list) {
                    try {
                        sink.record(incident);
                    } catch (RuntimeException e) {
                        // keep going: the next sink may still work
                    }
                }
            }

            @Override
            public boolean recording() {
                return list.stream().allMatch(IncidentSink::recording);
            }
        };
    }
}
