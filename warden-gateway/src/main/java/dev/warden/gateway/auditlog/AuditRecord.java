package dev.warden.gateway.auditlog;

import dev.warden.core.identity.Caller;
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
 * @param subject who was calling, when the transport authenticated the caller (not a name it gave itself)
 * @param clientId the OAuth client the caller's token was issued to, when known
 * @param issuer who vouched for the subject ({@code api-key} for an API key), with the subject
 * @param kind how the caller was established ({@code JWT}, {@code INTROSPECTED}, {@code API_KEY}), with
 *             the subject: the principal is the three together
 */
public record AuditRecord(Instant time, String client, Optional<String> upstream, String method, Optional<String> tool,
        Duration duration, Outcome outcome, Optional<String> code, Optional<String> ref, Optional<String> subject,
        Optional<String> clientId, Optional<String> issuer, Optional<String> kind) {

    public enum Outcome { OK, TOOL_ERROR, ERROR, CANCELLED }

    public AuditRecord {
        Objects.requireNonNull(time, "time");
        Objects.requireNonNull(client, "client");
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(duration, "duration");
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(clientId, "clientId");
        Objects.requireNonNull(issuer, "issuer");
        Objects.requireNonNull(kind, "kind");
    }

    /** A record as stores that keep no issuer or kind read it back. */
    public AuditRecord(Instant time, String client, Optional<String> upstream, String method, Optional<String> tool,
            Duration duration, Outcome outcome, Optional<String> code, Optional<String> ref, Optional<String> subject,
            Optional<String> clientId) {
        this(time, client, upstream, method, tool, duration, outcome, code, ref, subject, clientId, Optional.empty(),
                Optional.empty());
    }

    /** A record of a request no authenticated caller made (stdio, loopback HTTP). */
    public AuditRecord(Instant time, String client, Optional<String> upstream, String method, Optional<String> tool,
            Duration duration, Outcome outcome, Optional<String> code, Optional<String> ref) {
        this(time, client, upstream, method, tool, duration, outcome, code, ref, Optional.empty(), Optional.empty());
    }

    /** This record with who was calling: the caller's subject, issuer, kind and OAuth client id; unchanged for nobody. */
    public AuditRecord withCaller(Optional<Caller> caller) {
        return caller.map(c -> new AuditRecord(time, client, upstream, method, tool, duration, outcome, code, ref,
                Optional.of(c.subject()), c.clientId(), Optional.of(c.issuer()), Optional.of(c.kind().name())))
                .orElse(this);
    }
}
