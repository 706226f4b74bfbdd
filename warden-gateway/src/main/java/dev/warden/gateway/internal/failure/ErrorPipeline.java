package dev.warden.gateway.internal.failure;

import dev.warden.core.error.ErrorCode;
import dev.warden.core.error.ErrorRenderer;
import dev.warden.core.error.ProtocolException;
import dev.warden.core.error.Ref;
import dev.warden.core.error.Violation;
import dev.warden.core.error.VisibleFailure;
import dev.warden.core.identity.Caller;
import dev.warden.core.incident.ErrorBoundary;
import dev.warden.core.incident.IncidentSink;
import dev.warden.core.json.Json;
import dev.warden.core.jsonrpc.JsonRpcError;
import dev.warden.core.sanitize.CallerInput;
import dev.warden.core.sanitize.Policy;
import dev.warden.core.sanitize.Sanitizer;
import dev.warden.core.sanitize.detection.Category;
import dev.warden.gateway.internal.limits.Guard;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.Supplier;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What happens to an upstream's failure on its way to the client: normalized (text encoded twice
 * is decoded once, {@link UpstreamText}), sanitized with the upstream's policy, given a code (the
 * sanitizer's, e.g. a database error's SQLSTATE mapping, else one read from the text:
 * {@link dev.warden.core.failure.Classifier}) and a ref, and recorded with the original in the incident store
 * (by core's recorder, {@link UpstreamIncidents}); {@link FailureReader} does these in that order. The client gets the
 * sanitized text, the code and the ref, rendered by the one renderer. What is not a failure
 * (results, notifications) is cleaned by {@link SuccessCleaner}. This class is the one door the
 * connection uses for all of it.
 */
public final class ErrorPipeline {

    /**
     * A failure as the client will see it, recorded under {@code ref}: {@code retryAfter} only when
     * the wait is known, {@code violations} (where and why the arguments were wrong) only when the
     * upstream said so. {@link #visible()} is the error model's value that the one renderer turns
     * into the client's bytes ({@link #toolError}, {@link #rpcError}); nothing here formats it.
     */
    public record Outcome(ErrorCode code, Ref ref, String message, Optional<Duration> retryAfter,
                          List<Violation> violations) {
        public Outcome {
            Objects.requireNonNull(code, "code");
            Objects.requireNonNull(ref, "ref");
            Objects.requireNonNull(message, "message");
            retryAfter = Objects.requireNonNullElse(retryAfter, Optional.empty());
            violations = List.copyOf(violations);
        }

        public Outcome(ErrorCode code, Ref ref, String message, Optional<Duration> retryAfter) {
            this(code, ref, message, retryAfter, List.of());
        }

        public Outcome(ErrorCode code, Ref ref, String message) {
            this(code, ref, message, Optional.empty());
        }

        /** This outcome with the violations an upstream's error gave (pointer and message, already sanitized). */
        public Outcome withViolations(List<Violation> violations) {
            return new Outcome(code, ref, message, retryAfter, violations);
        }

        /** The error model's value for this outcome: what the renderer, and only it, formats. */
        public VisibleFailure visible() {
            return new VisibleFailure(code, message.isBlank() ? code.defaultMessage() : message, code.retryable(),
                    violations, retryAfter, ref);
        }
    }

    /**
     * What an upstream said when it failed, as it said it: its text (a JSON-RPC error's message, an
     * {@code isError} result's text blocks) and its structured part ({@code error.data},
     * {@code structuredContent}). Each is sanitized as what it is, never joined into one text.
     * {@code otherBlocks} (an {@code isError} result's images, resources…) never reach the client,
     * which gets Warden's error instead, so they are kept for the incident only.
     */
    public record Said(String text, Optional<JsonNode> data, List<JsonNode> otherBlocks) {
        public Said {
            Objects.requireNonNull(text, "text");
            data = Objects.requireNonNullElse(data, Optional.<JsonNode>empty())
                    .filter(d -> !d.isNull() && !d.isMissingNode());
            otherBlocks = List.copyOf(otherBlocks);
        }

        public Said(String text, Optional<JsonNode> data) {
            this(text, data, List.of());
        }

        public static Said text(String text) {
            return new Said(text, Optional.empty());
        }

        /** A JSON-RPC error: its message and its {@code data}. */
        public static Said of(JsonRpcError error) {
            return new Said(error.message(), error.data());
        }

        /** An {@code isError} result: its text blocks and its structured content (its other blocks for the incident). */
        public static Said ofResult(JsonNode result) {
            return new Said(UpstreamText.textBlocks(result), Optional.ofNullable(result.get("structuredContent")),
                    UpstreamText.otherBlocks(result));
        }

        /** The whole of it, for the incident (the operator sees what the upstream sent), one part a line. */
        String original() {
            StringBuilder b = new StringBuilder(text);
            data.ifPresent(d -> b.append('\n').append(d.isString() ? d.stringValue() : d.toString()));
            otherBlocks.forEach(block -> b.append('\n').append(block));
            return b.toString();
        }
    }

    private final String upstream;
    private final UpstreamIncidents incidents;
    private final FailureReader reader;
    private final SuccessCleaner results;

    public ErrorPipeline(String upstream, Sanitizer sanitizer, Policy policy, boolean redactSuccessfulResults,
            IncidentSink incidents, Clock clock) {
        this(upstream, sanitizer, policy, redactSuccessfulResults, false, incidents, clock, c -> { },
                tool -> redactSuccessfulResults);
    }

    /**
     * @param pii whether successful results also lose personal data (failures follow {@code sanitizer})
     * @param onFinding told of each finding the sanitizer makes in this upstream's failures (for metrics)
     */
    public ErrorPipeline(String upstream, Sanitizer sanitizer, Policy policy, boolean redactSuccessfulResults,
            boolean pii, IncidentSink incidents, Clock clock, Consumer<Category> onFinding) {
        this(upstream, sanitizer, policy, redactSuccessfulResults, pii, incidents, clock, onFinding,
                tool -> redactSuccessfulResults);
    }

    /** @param redactsResultsOf per tool (the upstream's own name), whether its successful results lose their credentials */
    public ErrorPipeline(String upstream, Sanitizer sanitizer, Policy policy, boolean redactSuccessfulResults,
            boolean pii, IncidentSink incidents, Clock clock, Consumer<Category> onFinding,
            Predicate<String> redactsResultsOf) {
        this.upstream = upstream;
        // Shared by every client: a client connection records through its view (servedTo), with its caller.
        this.incidents = new UpstreamIncidents(upstream, ErrorBoundary.builder().incidents(incidents).clock(clock).build());
        this.reader = new FailureReader(sanitizer, policy, onFinding, this.incidents);
        this.results = new SuccessCleaner(sanitizer, policy, onFinding, redactSuccessfulResults, redactsResultsOf, pii);
    }

    private ErrorPipeline(ErrorPipeline shared, UpstreamIncidents incidents) {
        this.upstream = shared.upstream;
        this.incidents = incidents;
        this.reader = shared.reader.recordingTo(incidents);
        this.results = shared.results;
    }

    /**
     * This pipeline as one client connection uses it ({@link dev.warden.gateway.internal.client.ClientProfile#pipeline}): the same
     * sanitizing, codes and recorder, and the incidents it records carry {@code caller}.
     */
    public ErrorPipeline servedTo(Supplier<Optional<Caller>> caller) {
        return new ErrorPipeline(this, incidents.servedTo(caller));
    }

    public String upstream() {
        return upstream;
    }

    /**
     * What the gateway's refusals of this upstream's own requests become (a question it cannot
     * route): recorded in the gateway's incident store, so the ref the upstream sees resolves.
     */
    public ErrorBoundary boundary() {
        return incidents.boundary();
    }

    /**
     * Sanitizes, codes and records one failure text from the upstream. {@code inputs} are the
     * strings of the client's request: what the caller sent may come back to it (an identifier of
     * its query, the path it asked for), and is never read for the code.
     */
    public Outcome failure(String method, Optional<String> tool, String untrusted, ErrorCode fallback,
            Set<String> inputs) {
        return failure(method, tool, untrusted, fallback, inputs, Optional.empty());
    }

    /**
     * {@link #failure(String, Optional, String, ErrorCode, Set)}, with the request's arguments as
     * the incident keeps them (already sanitized and bounded, see {@link #argumentsOf}).
     */
    public Outcome failure(String method, Optional<String> tool, String untrusted, ErrorCode fallback,
            Set<String> inputs, Optional<String> arguments) {
        return reader.read(method, tool, Said.text(untrusted), fallback, CallerInput.ofStrings(inputs), inputs, Set.of(),
                arguments);
    }

    /** The failure an upstream reported for a request with these params. */
    public Outcome failure(String method, Optional<String> tool, Said said, ErrorCode fallback,
            Optional<JsonNode> params) {
        return failure(method, tool, said, fallback, params, Published.none());
    }

    /**
     * As {@link #failure(String, Optional, Said, ErrorCode, Optional)}, for a tool that published
     * {@code published} (its definition, this session's results, its directories, its tools' names):
     * those may come back as the caller's own do.
     */
    public Outcome failure(String method, Optional<String> tool, Said said, ErrorCode fallback,
            Optional<JsonNode> params, Published published) {
        return reader.read(method, tool, said, fallback, published.onto(CallerParams.callerOf(params)),
                CallerParams.inputsOf(params), argumentNames(params, published.words()),
                CallerParams.argumentsOf(params));
    }

    /**
     * The names a failure may quote as the caller's fields: those it sent, and the tool's published
     * property names (a required one it left out is still its own field, never the server's words:
     * zod's "timeout_ms: Required" is no timeout). Published words that are one token stand for them.
     */
    private static Set<String> argumentNames(Optional<JsonNode> params, List<String> published) {
        Set<String> sent = CallerParams.argumentNames(params);
        if (published.isEmpty()) {
            return sent;
        }
        Set<String> names = new java.util.HashSet<>(sent);
        for (String word : published) {
            if (names.size() >= 256) {
                break;
            }
            if (isToken(word)) {
                names.add(word);
            }
        }
        return names;
    }

    private static boolean isToken(String word) {
        if (word.isEmpty() || word.length() > 64) {
            return false;
        }
        for (int i = 0; i < word.length(); i++) {
            char c = word.charAt(i);
            if (!(Character.isLetterOrDigit(c) || c == '_' || c == '-')) {
                return false;
            }
        }
        return true;
    }

    /** A failure of the gateway's own making (no upstream text): recorded with its cause. */
    public Outcome local(String method, Optional<String> tool, ErrorCode code, String trustedMessage, Throwable cause) {
        return new Outcome(code, incidents.local(method, tool, code, trustedMessage, cause), trustedMessage);
    }

    /**
     * A call the gateway itself refused (a limit, an open breaker), with when to retry. A flood of
     * refusals is one event, not thousands: refusals of the same kind (method, tool, code) within
     * a second share one incident and ref (the audit log still has a line for each request).
     */
    public Outcome refused(String method, Optional<String> tool, Guard.Refusal refusal) {
        return new Outcome(refusal.code(), incidents.refused(method, tool, refusal), refusal.message(),
                Optional.of(refusal.retryAfter()));
    }

    /**
     * A name the caller asked for that does not exist (an unknown tool): the client is not told
     * the name, the operator is. Names asked for within a second share one incident each, so a
     * flood of guesses writes a bounded number of incidents a second.
     */
    public Outcome unknown(String method, String name, Optional<String> arguments) {
        return unknown(method, name, arguments, Optional.empty());
    }

    /**
     * As {@link #unknown(String, String, Optional)}, for an upstream that said so: its words are kept
     * in an incident of this call's own (never one shared by a flood of guesses).
     */
    public Outcome unknown(String method, String name, Optional<String> arguments, Optional<Said> said) {
        Ref ref = said.isPresent()
                ? incidents.unknownSaid(method, shown(name), said.get().original(), arguments)
                : incidents.unknown(method, shown(name), arguments);
        return new Outcome(ErrorCode.NOT_FOUND, ref, "Unknown tool");
    }

    private static String shown(String name) {
        return PrintableName.of(name.length() > 128 ? name.substring(0, 128) : name);
    }

    /** A {@code tools/call} result with {@code isError}, carrying the outcome as Warden's error object. */
    public ObjectNode toolError(Outcome outcome, boolean structured) {
        return (ObjectNode) Json.tree(ErrorRenderer.toolResult(outcome.visible(), structured));
    }

    /**
     * The outcome as a JSON-RPC error for the client: the upstream's code kept when Warden may
     * send it (else -32603); the renderer gives {@code data} Warden's code, retryability, what is
     * known of the wait and the violations, and the ref the outcome was recorded under.
     */
    public ProtocolException rpcError(int jsonRpcCode, Outcome outcome) {
        return new ProtocolException(JsonRpcError.mayEmit(jsonRpcCode) ? jsonRpcCode : JsonRpcError.INTERNAL_ERROR,
                outcome.visible());
    }

    /**
     * Credentials in a successful result are redacted (on by default): every string in its text
     * content and structured content, each where it stands, and only values that are certainly
     * credentials, over exactly their span; other findings (paths, hosts, code that names a
     * token) are left, as results carry them legitimately.
     */
    public JsonNode cleanSuccess(JsonNode result) {
        return results.cleanSuccess(result);
    }

    /** A tool's successful result: as {@link #cleanSuccess(JsonNode)}, unless this tool's results are kept as they are. */
    public JsonNode cleanSuccess(String tool, JsonNode result) {
        return results.cleanSuccess(tool, result);
    }

    /** An upstream's instructions for a client's {@code initialize}: cleaned as a notification is, scanned once per text. */
    public String cleanInstructions(String instructions) {
        return results.cleanInstructions(instructions);
    }

    /** A log or progress message from the upstream: every string in it sanitized with the upstream's policy. */
    public JsonNode cleanNotification(JsonNode params) {
        return results.cleanNotification(params);
    }

    /**
     * A task as the client gets it: its {@code statusMessage} (a failed task's is often the
     * server's error text) sanitized as a notification's text is; the rest as it is.
     */
    public JsonNode cleanTask(JsonNode task) {
        if (!(task instanceof ObjectNode object) || !task.path("statusMessage").isString()) {
            return task;
        }
        ObjectNode copy = object.deepCopy();
        copy.set("statusMessage", cleanNotification(task.get("statusMessage")));
        return copy;
    }

    /**
     * A log from the upstream sent to one client only, while it has calls in flight: what that
     * client sent in them ({@code sent}) may come back to it.
     */
    public JsonNode cleanNotification(JsonNode params, CallerInput sent) {
        return results.cleanNotification(params, sent);
    }

    /**
     * The request's arguments as an incident keeps them for the operator: every string sanitized
     * where it stands (never the serialized text), bounded ({@link dev.warden.core.incident.IncidentArguments}).
     */
    public static Optional<String> argumentsOf(Optional<JsonNode> params) {
        return CallerParams.argumentsOf(params);
    }

    /**
     * The strings of a request's params worth scrubbing from its errors: long enough not to be
     * common words (3+ characters), short enough to be values (at most 4096), at most 32, longest
     * first so a value containing another is replaced whole.
     */
    public static Set<String> inputsOf(Optional<JsonNode> params) {
        return CallerParams.inputsOf(params);
    }

    /** The TypeScript SDK's {@code "MCP error <code>: "} prefixes, gone (see {@link UpstreamText#withoutSdkPrefix}). */
    public static String withoutSdkPrefix(String text) {
        return UpstreamText.withoutSdkPrefix(text);
    }

    /** The text of an {@code isError} result: its text blocks, joined; its structured content if it has none. */
    public static String errorText(JsonNode result) {
        return UpstreamText.errorText(result);
    }
}
