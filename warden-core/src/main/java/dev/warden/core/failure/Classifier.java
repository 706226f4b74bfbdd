package dev.warden.core.failure;

import dev.warden.core.error.ErrorCode;
import dev.warden.core.jsonrpc.JsonRpcError;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The one classifier: a failure's code, {@code retryable} and {@code retryAfterMs}, decided from
 * the failure's structure and the server's own words, never from what the caller sent. Evidence
 * is read in this order, the first that speaks decides (docs/reference/failure-codes.md):
 * <ol>
 *   <li>a code the server declared (a Warden error object);</li>
 *   <li>a code in a known error structure (an HTTP status, a gRPC or GraphQL code, an AWS type);</li>
 *   <li>a database error's SQLSTATE, unless it only says "the server failed" and the words say the
 *       caller's query was wrong;</li>
 *   <li>the server's words, with the caller's values and argument names masked ({@link ServerWords});</li>
 *   <li>else no evidence: {@link #withoutEvidence(Answer)}.</li>
 * </ol>
 * {@code retryable} is the code's; a wait the server stated is kept only for a retryable code.
 */
public final class Classifier {

    /** Text beyond this is not read for a code (the sanitizer has its own bound). */
    public static final int READ_CHARS = 16 * 1024;

    /** How the server answered: what its failure is when nothing in it is evidence. */
    public enum Answer {
        /**
         * The tool's answer to this call: an {@code isError} result, or a JSON-RPC error on a
         * {@code tools/call} that becomes one (SDKs turn any error a tool throws into -32603).
         */
        TOOL_RESULT,
        /** A JSON-RPC -32602 error: the server refused the request's params. */
        INVALID_PARAMS,
        /** Any other JSON-RPC error: the server failed to handle the request (-32603: it threw). */
        SERVER_ERROR;

        /**
         * What a JSON-RPC error with this code is, as an answer to anything but a tool call: the
         * one place a JSON-RPC code becomes a kind of failure (the gateway's and the SDK adapter's).
         */
        public static Answer ofJsonRpc(int jsonRpcCode) {
            return jsonRpcCode == JsonRpcError.INVALID_PARAMS ? INVALID_PARAMS : SERVER_ERROR;
        }
    }

    /**
     * What is known of one failure. {@code callerValues} and {@code callerNames} are what the caller
     * sent (argument values and names): they are masked before the words are read.
     */
    public record Evidence(Optional<ErrorCode> declared, Optional<ErrorCode> structure, Optional<ErrorCode> database,
                           String serverText, Set<String> callerValues, Set<String> callerNames,
                           ErrorCode withoutEvidence, Optional<Duration> retryAfter) {
        public Evidence {
            declared = Objects.requireNonNullElse(declared, Optional.empty());
            structure = Objects.requireNonNullElse(structure, Optional.empty());
            database = Objects.requireNonNullElse(database, Optional.empty());
            Objects.requireNonNull(serverText, "serverText");
            callerValues = Set.copyOf(callerValues);
            callerNames = Set.copyOf(callerNames);
            Objects.requireNonNull(withoutEvidence, "withoutEvidence");
            retryAfter = Objects.requireNonNullElse(retryAfter, Optional.empty());
        }

        /** Only words: a text from a server, what the caller sent, and the code if they say nothing. */
        public static Evidence words(String serverText, Set<String> callerValues, Set<String> callerNames,
                ErrorCode withoutEvidence) {
            return new Evidence(Optional.empty(), Optional.empty(), Optional.empty(), serverText, callerValues,
                    callerNames, withoutEvidence, Optional.empty());
        }
    }

    /** The decision: the code, and how long to wait before retrying where the server said so. */
    public record Decision(ErrorCode code, Optional<Duration> retryAfter) {
        public Decision {
            Objects.requireNonNull(code, "code");
            retryAfter = Objects.requireNonNullElse(retryAfter, Optional.empty());
        }

        public boolean retryable() {
            return code.retryable();
        }
    }

    private Classifier() {
    }

    /**
     * What a failure with no evidence in it is. A tool's answer to this call is the caller's to
     * change (VALIDATION_ERROR, not retryable): not knowing why is not the server failing. A JSON-RPC
     * error other than -32602 on any other request says the server could not handle it at all.
     */
    public static ErrorCode withoutEvidence(Answer answer) {
        return switch (answer) {
            case TOOL_RESULT, INVALID_PARAMS -> ErrorCode.VALIDATION_ERROR;
            case SERVER_ERROR -> ErrorCode.UPSTREAM_ERROR;
        };
    }

    /** The decision for one failure. */
    public static Decision decide(Evidence e) {
        ErrorCode code = e.declared().map(Classifier::ofUpstream)
                .or(() -> e.structure().map(Classifier::ofUpstream))
                .orElseGet(() -> fromDatabaseAndWords(e));
        return new Decision(code, code.retryable() ? e.retryAfter() : Optional.empty());
    }

    /** The code the server's words give, with the caller's masked, else {@code withoutEvidence}. */
    public static ErrorCode ofWords(String serverText, Set<String> callerValues, Set<String> callerNames,
            ErrorCode withoutEvidence) {
        return decide(Evidence.words(serverText, callerValues, callerNames, withoutEvidence)).code();
    }

    /**
     * The code a server declared by name (a Warden error object's {@code code}, another replica's
     * answer): empty if the name is none of Warden's. The one place a name becomes a code.
     */
    public static Optional<ErrorCode> declared(String name) {
        for (ErrorCode c : ErrorCode.values()) {
            if (c.name().equals(name)) {
                return Optional.of(c);
            }
        }
        return Optional.empty();
    }

    /** An upstream's internal error is, from the gateway, the upstream failing. */
    public static ErrorCode ofUpstream(ErrorCode code) {
        return code == ErrorCode.INTERNAL_ERROR ? ErrorCode.UPSTREAM_ERROR : code;
    }

    private static ErrorCode fromDatabaseAndWords(Evidence e) {
        String masked = CallerWords.masked(e.serverText(), e.callerValues(), e.callerNames());
        Optional<ErrorCode> words = ServerWords.read(masked, e.callerValues());
        if (e.database().isEmpty()) {
            return words.orElse(e.withoutEvidence());
        }
        // A database error's kind wins over words, except a generic "the server failed" where the
        // words say what the caller's query got wrong (a syntax error).
        ErrorCode database = ofUpstream(e.database().get());
        return database.systemFailure() && words.filter(w -> !w.systemFailure()).isPresent() ? words.get() : database;
    }
}
