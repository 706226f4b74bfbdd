package dev.warden.core.error;

import dev.warden.core.sanitize.Finding;
import java.time.Instant;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything an operator needs to understand a failure, stored where only the operator can read it.
 * The peer only ever learns the {@link Ref}.
 */
public record Incident(Ref ref, Instant time, ErrorCode code, String method, Optional<String> tool,
                       Optional<String> upstream, Optional<String> original, List<Finding> findings,
                       List<ThrowableRecord> chain) {

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
