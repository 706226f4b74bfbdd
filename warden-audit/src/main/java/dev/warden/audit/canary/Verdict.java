package dev.warden.audit.canary;

import java.util.Objects;
import java.util.Optional;

/**
 * What a canary proved about one probe, for the report: the kind of injection, where it showed, the
 * judge's words, and the evidence as a category and the value to fingerprint (a token, a signature's
 * name or a resolved path: never file content, never what the server returned around it).
 */
public record Verdict(Kind kind, Optional<String> tool, String probe, String location, String message,
                      String evidenceCategory, String evidenceValue) {

    /** The last: what a tool does by design (it runs its caller's SQL or commands), not an injection. */
    public enum Kind { COMMAND_INJECTION, PATH_TRAVERSAL, SERVER_SIDE_REQUEST, SQL_INJECTION, CALLER_CODE }

    public Verdict {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(tool, "tool");
        Objects.requireNonNull(probe, "probe");
        Objects.requireNonNull(location, "location");
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(evidenceCategory, "evidenceCategory");
        Objects.requireNonNull(evidenceValue, "evidenceValue");
    }
}
