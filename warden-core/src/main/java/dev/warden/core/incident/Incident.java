package dev.warden.core.incident;

import dev.warden.core.error.ErrorCode;
import dev.warden.core.error.Ref;
import dev.warden.core.identity.Caller;
import dev.warden.core.sanitize.detection.Finding;
import java.time.Instant;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything an operator needs to understand a failure, where only the operator reads it; the peer
 * learns only the {@link Ref}.
 *
 * @param tool the tool the request named, also one the peer was not told of (an unknown tool)
 * @param arguments the request's arguments, sanitized and bounded ({@link IncidentArguments#of})
 * @param reason in Warden's own words, what failed or why the request was refused: trusted text
 * @param subject the authenticated caller ({@link dev.warden.core.identity.Caller}), never a name the peer gave
 * @param clientId the OAuth client the caller's token was issued to, when known
 * @param issuer who vouched for the subject
 * @param kind how the caller was established: subject, issuer and kind are the principal
 */
public record Incident(Ref ref, Instant time, ErrorCode code, String method, Optional<String> tool,
                       Optional<String> upstream, Optional<String> original, List<Finding> findings,
                       List<ThrowableRecord> chain, Optional<String> arguments, Optional<String> reason,
                       Optional<String> subject, Optional<String> clientId, Optional<String> issuer,
                       Optional<String> kind) {

    /**
     * The most of {@code arguments} and {@code reason} kept. Beyond it they are cut rather than
     * refused: recording a failure must never fail itself.
     */
    public static final int MAX_TEXT_CHARS = 16 * 1024;

    public Incident {
        Objects.requireNonNull(ref, "ref");
        Objects.requireNonNull(time, "time");
        Objects.requireNonNull(code, "code");
        Objects.requireNonNull(method, "method");
        tool = Objects.requireNonNullElse(tool, Optional.empty());
        upstream = Objects.requireNonNullElse(upstream, Optional.empty());
        original = Objects.requireNonNullElse(original, Optional.empty());
        findings = List.copyOf(findings);
        chain = List.copyOf(chain);
        arguments = bounded(Objects.requireNonNullElse(arguments, Optional.empty()));
        reason = bounded(Objects.requireNonNullElse(reason, Optional.empty()));
        subject = Objects.requireNonNullElse(subject, Optional.empty());
        clientId = Objects.requireNonNullElse(clientId, Optional.empty());
        issuer = Objects.requireNonNullElse(issuer, Optional.empty());
        kind = Objects.requireNonNullElse(kind, Optional.empty());
    }

    /** An incident whose caller is known by subject and client only (the shape before principals had a kind). */
    public Incident(Ref ref, Instant time, ErrorCode code, String method, Optional<String> tool,
                    Optional<String> upstream, Optional<String> original, List<Finding> findings,
                    List<ThrowableRecord> chain, Optional<String> arguments, Optional<String> reason,
                    Optional<String> subject, Optional<String> clientId) {
        this(ref, time, code, method, tool, upstream, original, findings, chain, arguments, reason, subject, clientId,
                Optional.empty(), Optional.empty());
    }

    /** An incident with no authenticated caller (the shape before callers were kept). */
    public Incident(Ref ref, Instant time, ErrorCode code, String method, Optional<String> tool,
                    Optional<String> upstream, Optional<String> original, List<Finding> findings,
                    List<ThrowableRecord> chain, Optional<String> arguments, Optional<String> reason) {
        this(ref, time, code, method, tool, upstream, original, findings, chain, arguments, reason, Optional.empty(),
                Optional.empty());
    }

    /** An incident without arguments or reason (the shape before they were kept). */
    public Incident(Ref ref, Instant time, ErrorCode code, String method, Optional<String> tool,
                    Optional<String> upstream, Optional<String> original, List<Finding> findings,
                    List<ThrowableRecord> chain) {
        this(ref, time, code, method, tool, upstream, original, findings, chain, Optional.empty(), Optional.empty());
    }

    /** An incident from an exception thrown in this process. */
    public Incident(Ref ref, Instant time, ErrorCode code, String method, Optional<String> tool,
                    List<ThrowableRecord> chain) {
        this(ref, time, code, method, tool, Optional.empty(), Optional.empty(), List.of(), chain);
    }

    /** An incident from untrusted text that was sanitized: the original and what was found in it. */
    public static Incident ofText(Ref ref, Instant time, ErrorCode code, String method, Optional<String> tool,
                                  Optional<String> upstream, String original, List<Finding> findings) {
        return new Incident(ref, time, code, method, tool, upstream, Optional.of(original), findings, List.of());
    }

    /** This incident with the request's arguments, as {@link IncidentArguments#of} made them; blank means none. */
    public Incident withArguments(String arguments) {
        return new Incident(ref, time, code, method, tool, upstream, original, findings, chain, present(arguments),
                reason, subject, clientId, issuer, kind);
    }

    /** This incident with what failed or why the request was refused, in Warden's words; blank means none. */
    public Incident withReason(String reason) {
        return new Incident(ref, time, code, method, tool, upstream, original, findings, chain, arguments,
                present(reason), subject, clientId, issuer, kind);
    }

    /** This incident with who was calling: the authenticated subject and its OAuth client id, for the operator. */
    public Incident withCaller(String subject, Optional<String> clientId) {
        return new Incident(ref, time, code, method, tool, upstream, original, findings, chain, arguments, reason,
                present(subject), Objects.requireNonNull(clientId, "clientId"), Optional.empty(), Optional.empty());
    }

    /** This incident with who was calling: the caller's principal (kind, issuer, subject) and OAuth client id. */
    public Incident withCaller(Caller caller) {
        return new Incident(ref, time, code, method, tool, upstream, original, findings, chain, arguments, reason,
                present(caller.subject()), caller.clientId(), present(caller.issuer()),
                Optional.of(caller.kind().name()));
    }

    private static Optional<String> present(String text) {
        return Optional.of(Objects.requireNonNull(text, "text")).filter(t -> !t.isBlank());
    }

    private static Optional<String> bounded(Optional<String> text) {
        return text.map(t -> t.length() <= MAX_TEXT_CHARS ? t
                : t.substring(0, Character.isHighSurrogate(t.charAt(MAX_TEXT_CHARS - 1)) ? MAX_TEXT_CHARS - 1
                        : MAX_TEXT_CHARS) + "…");
    }

    /** One exception in a cause chain, with its stack, as text. */
    public record ThrowableRecord(String type, Optional<String> message, List<String> stack) {
        public ThrowableRecord {
            Objects.requireNonNull(type, "type");
            message = Objects.requireNonNullElse(message, Optional.empty());
            stack = List.copyOf(stack);
        }
    }

    /** Flattens a cause chain (suppressed exceptions included, cycles cut). */
    public static List<ThrowableRecord> chainOf(Throwable throwable) {
        List<ThrowableRecord> out = new ArrayList<>();
        Map<Throwable, Boolean> seen = new IdentityHashMap<>();
        collect(throwable, out, seen);
        return out;
    }

    private static void collect(Throwable t, List<ThrowableRecord> out, Map<Throwable, Boolean> seen) {
        while (t != null && seen.put(t, Boolean.TRUE) == null) {
            List<String> frames = new ArrayList<>();
            for (StackTraceElement frame : t.getStackTrace()) {
                frames.add(frame.toString());
            }
            out.add(new ThrowableRecord(t.getClass().getName(), Optional.ofNullable(t.getMessage()), frames));
            for (Throwable suppressed : t.getSuppressed()) {
                collect(suppressed, out, seen);
            }
            t = t.getCause();
        }
    }
}
