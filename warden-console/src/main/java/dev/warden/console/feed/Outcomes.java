package dev.warden.console.feed;

import dev.warden.gateway.auditlog.AuditRecord;

/** How a tool call ended, as the console counts it: {@code OK}, {@code CANCELLED}, or its Warden code. */
final class Outcomes {

    static final String OK = "OK";
    static final String CANCELLED = "CANCELLED";
    /** What stands for any further outcome once a minute has counted {@link #MAX_PER_MINUTE}. */
    static final String OTHER = "(other)";
    /** Distinct outcomes one minute keeps: codes are a registry's, but a bound costs nothing. */
    static final int MAX_PER_MINUTE = 16;

    private Outcomes() {
    }

    static String of(AuditRecord r) {
        return switch (r.outcome()) {
            case OK -> OK;
            case CANCELLED -> CANCELLED;
            case TOOL_ERROR, ERROR -> r.code().orElse(r.outcome().name());
        };
    }

    /** Whether the outcome counts as an error (everything but OK and CANCELLED). */
    static boolean isError(String outcome) {
        return !OK.equals(outcome) && !CANCELLED.equals(outcome);
    }
}
