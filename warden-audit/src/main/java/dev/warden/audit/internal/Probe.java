package dev.warden.audit.internal;

import dev.warden.audit.canary.Canary;
import java.util.Objects;
import java.util.Optional;
import tools.jackson.databind.node.ObjectNode;

/**
 * One request the audit sends (or, in a dry run, would send).
 *
 * @param kind        what it tests, which decides how its answer is judged
 * @param method      the JSON-RPC method
 * @param tool        the tool, resource or prompt it concerns; empty for the server as a whole
 * @param description the probe in words, for the report (never a secret: built from names and kinds only)
 * @param params      the request's params
 * @param canary      what the answer can prove (a shell's echo, a traversal's file, a URL's fetch, a
 *                    database's syntax error), for the hostile values that carry one
 */
public record Probe(Kind kind, String method, Optional<String> tool, String description, ObjectNode params,
                    Optional<Canary> canary) {

    public enum Kind {
        /** A well-formed call: the baseline a long input's time is compared with. */
        VALID,
        /**
         * Valid arguments with another value the schema or a description lists (an enum's, an
         * example's, "Available IDs: …"): a document the baseline did not read may carry what the
         * model should not be told.
         */
        LISTED_VALUE,
        /** Arguments that break the tool's input schema: a tool failure is expected, as isError. */
        BAD_ARGUMENTS,
        /** Well-typed arguments holding hostile values (traversal, SQL, shell, format, control characters). */
        HOSTILE,
        /** A canary beside the marked hostile values (no marker: a shell's echo, a path, a URL, an SQL value). */
        CANARY,
        /** A string over its maxLength, or 64 KiB long: timed against the baseline. */
        LONG_STRING,
        /** A tool that does not exist: a protocol error is expected. */
        UNKNOWN_TOOL,
        UNKNOWN_RESOURCE,
        UNKNOWN_PROMPT
    }

    public Probe {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(tool, "tool");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(params, "params");
        Objects.requireNonNull(canary, "canary");
    }

    public Probe(Kind kind, String method, Optional<String> tool, String description, ObjectNode params) {
        this(kind, method, tool, description, params, Optional.empty());
    }

    /** The plan's line for this probe: {@code tools/call read_file: required property 'path' missing}. */
    public String line() {
        return method + tool.map(t -> " " + t).orElse("") + ": " + description;
    }

    /** Whether a tool failure is what this probe expects (its tool exists and the arguments are wrong). */
    public boolean expectsToolFailure() {
        return kind == Kind.BAD_ARGUMENTS || kind == Kind.HOSTILE || kind == Kind.CANARY || kind == Kind.LONG_STRING;
    }
}
