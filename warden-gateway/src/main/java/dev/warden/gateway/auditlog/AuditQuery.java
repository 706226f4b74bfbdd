package dev.warden.gateway.auditlog;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * Which audit records to list: those at or after {@code since} and before {@code until}, of one
 * tool, subject or outcome when given, newest first, at most {@code limit}.
 */
public record AuditQuery(Instant since, Optional<Instant> until, Optional<String> tool, Optional<String> subject,
        Optional<AuditRecord.Outcome> outcome, int limit) {

    public AuditQuery {
        Objects.requireNonNull(since, "since");
        Objects.requireNonNull(until, "until");
        Objects.requireNonNull(tool, "tool");
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(outcome, "outcome");
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be at least 1, got " + limit);
        }
    }

    /** Everything since {@code since}, at most {@code limit}. */
    public static AuditQuery since(Instant since, int limit) {
        return new AuditQuery(since, Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), limit);
    }

    /** The same query, ending before {@code until} when given. */
    public AuditQuery until(Optional<Instant> until) {
        return new AuditQuery(since, until, tool, subject, outcome, limit);
    }

    public AuditQuery withTool(String tool) {
        return new AuditQuery(since, until, Optional.of(tool), subject, outcome, limit);
    }

    public AuditQuery withSubject(String subject) {
        return new AuditQuery(since, until, tool, Optional.of(subject), outcome, limit);
    }

    public AuditQuery withOutcome(AuditRecord.Outcome outcome) {
        return new AuditQuery(since, until, tool, subject, Optional.of(outcome), limit);
    }

    /** Whether the record is one this query asks for (the limit aside): what a store without SQL filters by. */
    public boolean matches(AuditRecord r) {
        return !r.time().isBefore(since) && until.map(r.time()::isBefore).orElse(true)
                && tool.map(t -> r.tool().filter(t::equals).isPresent()).orElse(true)
                && subject.map(s -> r.subject().filter(s::equals).isPresent()).orElse(true)
                && outcome.map(o -> r.outcome() == o).orElse(true);
    }
}
