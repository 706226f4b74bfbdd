package dev.warden.gateway.audit;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * One request through the gateway, as the audit log keeps it: who asked what of which upstream,
 * how long it took and how it ended. Never the arguments or the result.
 *
 * @param client the client's declared name and the connection's number ({@code claude-ai#3})
 * @param code Warden's failure code when it failed
 * @param ref the failure's ref, to look up with {@code warden incidents show}
 */
public record AuditRecord(Instant time, String client, Optional<String> upstream, String method, Optional<String> tool,
        Duration duration, Outcome outcome, Optional<String> code, Optional<String> ref) {

    public enum Outcome { OK, TOOL_ERROR, ERROR, CANCELLED }

    public AuditRecord {
        Objects.requireNonNull(time, "time");
        Objects.requireNonNull(client, "client");
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(duration, "duration");
        Objects.requireNonNull(outcome, "outcome");
    }
}
