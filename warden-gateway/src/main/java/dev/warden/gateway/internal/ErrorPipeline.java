package dev.warden.gateway.internal;

import dev.warden.core.error.ErrorCode;
import dev.warden.core.error.ErrorRenderer;
import dev.warden.core.incident.Incident;
import dev.warden.core.incident.IncidentSink;
import dev.warden.core.error.ProtocolException;
import dev.warden.core.error.Ref;
import dev.warden.core.error.RefWindow;
import dev.warden.core.error.VisibleFailure;
import dev.warden.core.json.Json;
import dev.warden.core.jsonrpc.JsonRpcError;
import dev.warden.core.error.Violation;
import dev.warden.core.sanitize.CallerInput;
import dev.warden.core.sanitize.Policy;
import dev.warden.core.sanitize.SanitizedJson;
import dev.warden.core.shape.EmbeddedJson;
import dev.warden.core.shape.ErrorShapes;
import dev.warden.core.shape.Extracted;
import dev.warden.core.shape.ProseViolations;
import dev.warden.core.sanitize.SanitizedText;
import dev.warden.core.sanitize.Sanitizer;
import java.time.Clock;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What happens to an upstream's failure on its way to the client: normalized (text encoded twice
 * is decoded once), sanitized with the upstream's policy, given a code (the sanitizer's, e.g. a
 * database error's SQLSTATE mapping, else one read from the text) and a ref, and recorded with
 * the original in the incident store. The client gets the sanitized text, the code and the ref.
 */
public final class ErrorPipeline {

    /** Text beyond this is not read for a code (the sanitizer has its own bound). */
    private static final int CLASSIFY_CHARS = 16 * 1024;

    /**
     * A failure as the client will see it, recorded under {@code ref}: {@code retryAfter} only when
     * the wait is known, {@code violations} (where and why the arguments were wrong) only when the
     * upstream said so. {@link #visible()} is the error model's value that the one renderer turns
     * into the client's bytes ({@link #toolError}, {@link #rpcError}); nothing here formats it.
     */
    public record Outcome(ErrorCode code, Ref ref, String message, Optional<Duration> retryAfter,
                          java.util.List<dev.warden.core.error.Violation> violations) {
        public Outcome {
            java.util.Objects.requireNonNull(code, "code");
            java.util.Objects.requireNonNull(ref, "ref");
            java.util.Objects.requireNonNull(message, "message");
            retryAfter = java.util.Objects.requireNonNullElse(retryAfter, Optional.empty());
            violations = java.util.List.copyOf(violations);
        }

        public Outcome(ErrorCode code, Ref ref, String message, Optional<Duration> retryAfter) {
            this(code, ref, message, retryAfter, java.util.List.of());
        }

        public Outcome(ErrorCode code, Ref ref, String message) {
            this(code, ref, message, Optional.empty());
        }

        /** This outcome with the violations an upstream's error gave (pointer and message, already sanitized). */
        public Outcome withViolations(java.util.List<dev.warden.core.error.Violation> violations) {
            return new Outcome(code, ref, message, retryAfter, violations);
        }

        /** The error model's value for this outcome: what the renderer, and only it, formats. */
        public VisibleFailure visible() {
            return new VisibleFailure(code, message.isBlank() ? code.defaultMessage() : message, code.retryable(),
                    violations, retryAfter, ref);
        }
    }

    private final String upstream;
    private final Sanitizer sanitizer;
    private final Policy policy;
    /**
     * What a string of a successful result becomes: only what is certainly a credential is
     * replaced, over exactly its span ({@link dev.warden.core.sanitize.CredentialRedactor}); with
     * {@code pii}, personal data too. Anything else comes back byte for byte.
     */
    private final java.util.function.UnaryOperator<String> resultText;
    private static final dev.warden.core.sanitize.CredentialRedactor CREDENTIALS =
            dev.warden.core.sanitize.CredentialRedactor.ofDefaults();
    private final boolean redactSuccessfulResults;
    private final IncidentSink incidents;
    private final Clock clock;

    private final java.util.function.Consumer<dev.warden.core.sanitize.Category> onFinding;

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
            boolean pii, IncidentSink incidents, Clock clock,
            java.util.function.Consumer<dev.warden.core.sanitize.Category> onFinding) {
        this(upstream, sanitizer, policy, redactSuccessfulResults, pii, incidents, clock, onFinding,
                tool -> redactSuccessfulResults);
    }

    /** @param redactsResultsOf per tool (the upstream's own name), whether its successful results lose their credentials */
    public ErrorPipeline(String upstream, Sanitizer sanitizer, Policy policy, boolean redactSuccessfulResults,
            boolean pii, IncidentSink incidents, Clock clock,
            java.util.function.Consumer<dev.warden.core.sanitize.Category> onFinding,
            java.util.function.Predicate<String> redactsResultsOf) {
        this.redactsResultsOf = redactsResultsOf;
        this.boundary = dev.warden.core.incident.ErrorBoundary.builder().incidents(incidents).build();
        this.onFinding = onFinding;
        this.upstream = upstream;
        this.sanitizer = sanitizer;
        this.policy = policy;
        this.redactSuccessfulResults = redactSuccessfulResults;
        this.incidents = incidents;
        this.clock = clock;
        this.refusals = new RefWindow<>(clock, REFUSAL_WINDOW, MAX_REFUSAL_KINDS);
        if (pii) {
            Sanitizer.Builder personal = Sanitizer.builder().maxOutputChars(Integer.MAX_VALUE / 2).pii();
            for (dev.warden.core.sanitize.Category c : dev.warden.core.sanitize.Category.values()) {
                if (c != dev.warden.core.sanitize.Category.PII) {
                    personal.disable(c);
                }
            }
            Sanitizer personalOnly = personal.build();
            this.resultText = text -> {
                String redacted = CREDENTIALS.redact(text).text();
                return personalOnly.sanitize(redacted, Policy.REDACT, ErrorCode.UPSTREAM_ERROR).output();
            };
        } else {
            this.resultText = text -> CREDENTIALS.redact(text).text();
        }
    }

    public String upstream() {
        return upstream;
    }

    /**
     * What the gateway's refusals of this upstream's own requests become (a question it cannot
     * route): recorded in the gateway's incident store, so the ref the upstream sees resolves.
     */
    dev.warden.core.incident.ErrorBoundary boundary() {
        return boundary;
    }

    private final dev.warden.core.incident.ErrorBoundary boundary;

    private static final int MAX_ECHOES = 32;
    /** The well-known error shapes an upstream's failure is read for (JSON:API, problem details, Zod…), users' own included. */
    private static final ErrorShapes SHAPES = ErrorShapes.installed();

    /**
     * What an upstream said when it failed, as it said it: its text (a JSON-RPC error's message, an
     * {@code isError} result's text blocks) and its structured part ({@code error.data},
     * {@code structuredContent}). Each is sanitized as what it is, never joined into one text.
     */
    public record Said(String text, Optional<JsonNode> data) {
        public Said {
            java.util.Objects.requireNonNull(text, "text");
            data = java.util.Objects.requireNonNullElse(data, Optional.<JsonNode>empty())
                    .filter(d -> !d.isNull() && !d.isMissingNode());
        }

        public static Said text(String text) {
            return new Said(text, Optional.empty());
        }

        /** A JSON-RPC error: its message and its {@code data}. */
        public static Said of(JsonRpcError error) {
            return new Said(error.message(), error.data());
        }

        /** An {@code isError} result: its text blocks and its structured content. */
        public static Said ofResult(JsonNode result) {
            return new Said(textBlocks(result), Optional.ofNullable(result.get("structuredContent")));
        }

        /** The whole of it, for the incident (the operator sees what the upstream sent). */
        String original() {
            return data.map(d -> text + "\n" + (d.isString() ? d.stringValue() : d.toString())).orElse(text);
        }
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
        return failure(method, tool, Said.text(untrusted), fallback, CallerInput.ofStrings(inputs), inputs, Set.of(),
                arguments);
    }

    /** The failure an upstream reported for a request with these params. */
    public Outcome failure(String method, Optional<String> tool, Said said, ErrorCode fallback,
            Optional<JsonNode> params) {
        return failure(method, tool, said, fallback, params, java.util.List.of());
    }

    /**
     * As {@link #failure(String, Optional, Said, ErrorCode, Optional)}, for a tool that published
     * {@code published} (its name, its input's property names and enum values): those may come
     * back as the caller's own do.
     */
    public Outcome failure(String method, Optional<String> tool, Said said, ErrorCode fallback,
            Optional<JsonNode> params, java.util.Collection<String> published) {
        return failure(method, tool, said, fallback, callerOf(params).and(published), inputsOf(params),
                argumentNames(params), argumentsOf(params));
    }

    private Outcome failure(String method, Optional<String> tool, Said said, ErrorCode fallback, CallerInput caller,
            Set<String> inputs, Set<String> argumentNames, Optional<String> arguments) {
        String text = withoutSdkPrefix(decodedOnce(said.text()));
        // An upstream that already speaks Warden's error object (another Warden, say) keeps its code.
        Optional<ErrorCode> declared = declaredCode(text);
        if (declared.isPresent()) {
            text = Json.mapper().readTree(text).at("/error/message").asString("");
        }
        // JSON in the text (a server that returns its error object as a text block) is read as JSON.
        Optional<JsonNode> textTree = declared.isPresent() ? Optional.empty()
                : EmbeddedJson.decode(text).filter(JsonNode::isContainer);
        String prose = text;
        Optional<JsonNode> data = said.data().map(d -> d.isString()
                ? EmbeddedJson.decode(d.stringValue()).filter(JsonNode::isContainer).orElse(d) : d);
        // The string leaves of the structured part, one per line: for reading words, never for output.
        Optional<String> dataWords = data.map(ErrorPipeline::leaves);
        Optional<Extracted> extracted = declared.isPresent() ? Optional.empty()
                : data.flatMap(SHAPES::read).or(() -> textTree.flatMap(SHAPES::read))
                        // prose that names one of the caller's arguments ("email" must be a valid email)
                        .or(() -> textTree.isPresent() ? Optional.empty() : ProseViolations.read(prose, argumentNames))
                        .or(() -> dataWords.flatMap(d -> ProseViolations.read(d, argumentNames)));

        java.util.List<dev.warden.core.sanitize.Finding> findings = new java.util.ArrayList<>();
        Optional<ErrorCode> suggested;
        String shownText;
        if (textTree.isPresent()) {
            SanitizedJson clean = sanitizer.sanitizeJson(textTree.get(), policy, fallback, caller);
            shownText = clean.value().toString();
            findings.addAll(clean.plainFindings());
            suggested = clean.suggestedCode();
        } else {
            SanitizedText clean = sanitizer.sanitize(text, policy, fallback, caller);
            shownText = clean.output();
            findings.addAll(clean.findings());
            suggested = clean.suggestedCode();
        }
        Optional<String> shownData = Optional.empty();
        if (data.isPresent()) {
            SanitizedJson clean = sanitizer.sanitizeJson(data.get(), policy, fallback, caller);
            findings.addAll(clean.plainFindings());
            suggested = suggested.or(clean::suggestedCode);
            shownData = Optional.of(clean.value().isString() ? clean.value().stringValue() : clean.value().toString());
        }
        findings.forEach(f -> onFinding.accept(f.category()));
        Optional<String> dataText = shownData;

        // The code is read from what the server said, never from what the caller sent: the caller's
        // own words (a value it typed, a name it quoted in its SQL) are masked before reading.
        // (A database error's suggestion needs no such care: its code comes from the message's shape.)
        String serverText = text;
        String own = CallerWords.masked(dataWords.map(d -> serverText + "\n" + d).orElse(serverText), inputs);
        Optional<ErrorCode> fromShape = extracted.flatMap(Extracted::code).map(ErrorPipeline::visible);
        Optional<ErrorCode> fromWords = suggested.map(ErrorPipeline::visible);
        ErrorCode code = declared.or(() -> fromShape).orElseGet(() -> codeOf(fromWords, own, fallback));

        java.util.List<Violation> violations = extracted.map(e -> violations(e, caller)).orElse(java.util.List.of());
        String message = extracted.flatMap(Extracted::message)
                .map(m -> sanitizer.sanitize(m, policy, fallback, caller).output()).filter(m -> !m.isBlank())
                .or(() -> violations.isEmpty() ? Optional.empty() : Optional.of(violations.stream()
                        .map(Violation::line).collect(java.util.stream.Collectors.joining("\n"))))
                .orElseGet(() -> joined(shownText, dataText));
        if (message.isBlank()) {
            message = code.defaultMessage();
        }
        Optional<QueryFault> query = findings.stream().anyMatch(f -> f.category() == dev.warden.core.sanitize.Category.DATABASE)
                && message.contains(DATABASE_PLACEHOLDER) ? QueryFault.of(own) : Optional.empty();
        if (query.isPresent()) {
            code = query.get().code();
            message = message.replace(DATABASE_PLACEHOLDER, query.get().message());
        }
        Ref ref = Ref.random();
        Incident incident = Incident.ofText(ref, clock.instant(), code, method, tool, Optional.of(upstream),
                said.original(), findings);
        record(arguments.map(incident::withArguments).orElse(incident));
        Optional<Duration> retryAfter = extracted.flatMap(Extracted::retryAfter);
        return new Outcome(code, ref, message, retryAfter, violations);
    }

    /** The text a model reads: the server's text, then what its structured part adds. */
    private static String joined(String text, Optional<String> data) {
        if (data.isEmpty() || data.get().isBlank() || text.contains(data.get())) {
            return text;
        }
        return text.isBlank() ? data.get() : text + "\n" + data.get();
    }

    /** An extraction's violations, each message sanitized as the untrusted text it is; pointers are safe by construction. */
    private java.util.List<Violation> violations(Extracted extracted, CallerInput caller) {
        java.util.List<Violation> out = new java.util.ArrayList<>();
        for (Violation v : extracted.violations()) {
            String m = sanitizer.sanitize(v.message(), policy, ErrorCode.VALIDATION_ERROR, caller).output();
            out.add(new Violation(v.pointer(), m.isBlank() ? ErrorCode.VALIDATION_ERROR.defaultMessage() : m));
        }
        return out;
    }

    /** The string leaves of a value, one per line (bounded), for reading a code from its words. */
    private static String leaves(JsonNode node) {
        StringBuilder b = new StringBuilder();
        java.util.ArrayDeque<JsonNode> todo = new java.util.ArrayDeque<>();
        todo.push(node);
        int seen = 0;
        while (!todo.isEmpty() && b.length() < CLASSIFY_CHARS && seen++ < 4096) {
            JsonNode n = todo.pop();
            if (n.isString()) {
                b.append(n.stringValue()).append('\n');
            } else if (n.isContainer()) {
                java.util.List<JsonNode> children = new java.util.ArrayList<>();
                n.forEach(children::add);
                for (int i = children.size() - 1; i >= 0; i--) {
                    todo.push(children.get(i));
                }
            }
        }
        return b.toString();
    }

    /** The names of a call's arguments (top level): what a prose validation failure may point at. */
    static Set<String> argumentNames(Optional<JsonNode> params) {
        java.util.Set<String> names = new java.util.LinkedHashSet<>();
        params.map(p -> p.get("arguments")).filter(JsonNode::isObject)
                .ifPresent(a -> a.propertyNames().forEach(n -> {
                    if (names.size() < MAX_ECHOES) {
                        names.add(n);
                    }
                }));
        return names;
    }

    /** What the caller sent with a request: a call's arguments, else the params (a resource's URI, say). */
    static CallerInput callerOf(Optional<JsonNode> params) {
        return params.map(p -> p.has("arguments") ? p.get("arguments") : p).filter(JsonNode::isObject)
                .map(CallerInput::of).orElse(CallerInput.none());
    }

    /**
     * The code of a failure: what the server's words say the caller should fix (a path that is a
     * directory, SQL that does not parse) wins over a generic suggestion of the server failing; a
     * database error's precise kind wins over words.
     */
    private static ErrorCode codeOf(Optional<ErrorCode> suggested, String text, ErrorCode fallback) {
        ErrorCode words = classify(text, fallback);
        if (suggested.isEmpty()) {
            return words;
        }
        ErrorCode s = suggested.get();
        return s.systemFailure() && !words.systemFailure() ? words : s;
    }

    /**
     * The strings of a request's params worth scrubbing from its errors: long enough not to be
     * common words (3+ characters), short enough to be values (at most 4096), at most 32, longest
     * first so a value containing another is replaced whole.
     */
    public static Set<String> inputsOf(Optional<JsonNode> params) {
        java.util.List<String> found = new java.util.ArrayList<>();
        params.ifPresent(p -> collect(p, found, 0));
        found.sort(java.util.Comparator.comparingInt(String::length).reversed());
        return new java.util.LinkedHashSet<>(found);
    }

    private static void collect(JsonNode node, java.util.List<String> out, int depth) {
        if (out.size() >= MAX_ECHOES || depth > 16) {
            return;
        }
        if (node.isString()) {
            String v = node.stringValue();
            if (v.length() >= 3 && v.length() <= 4096) {
                out.add(v);
            }
            return;
        }
        if (node instanceof ObjectNode object) {
            for (Map.Entry<String, JsonNode> field : object.properties()) {
                // _meta is protocol bookkeeping; a tool's or prompt's name is the server's own word
                if (!field.getKey().equals("_meta") && !(depth == 0 && field.getKey().equals("name"))) {
                    collect(field.getValue(), out, depth + 1);
                }
            }
        } else if (node instanceof ArrayNode array) {
            for (JsonNode item : array) {
                collect(item, out, depth + 1);
            }
        }
    }

    static final String DATABASE_PLACEHOLDER = "[redacted:database-error]";

    /**
     * What a database error says about the query that caused it, when the query came from the
     * client (a SQL tool such as server-postgres): a syntax error or a missing table is the
     * caller's to fix, so it gets the code and a fixed message saying so, never the names.
     */
    record QueryFault(ErrorCode code, String message) {
        static Optional<QueryFault> of(String text) {
            String t = (text.length() > CLASSIFY_CHARS ? text.substring(0, CLASSIFY_CHARS) : text).toLowerCase(Locale.ROOT);
            if (t.contains("syntax error")) {
                return Optional.of(new QueryFault(ErrorCode.VALIDATION_ERROR, "The query is not valid SQL."));
            }
            if (t.contains("does not exist") || t.contains("doesn't exist") || t.contains("no such table")
                    || t.contains("no such column") || t.contains("unknown column")) {
                return Optional.of(new QueryFault(ErrorCode.NOT_FOUND,
                        "The query names a table, column or function that does not exist."));
            }
            if (t.contains("permission denied") || t.contains("read-only transaction") || t.contains("access denied")) {
                return Optional.of(new QueryFault(ErrorCode.PERMISSION_DENIED, "The query is not allowed."));
            }
            return Optional.empty();
        }
    }

    /** The code of a Warden error object ({@code {"error":{"code":"NOT_FOUND","message":…}}}), if the text is one. */
    static Optional<ErrorCode> declaredCode(String text) {
        String t = text.strip();
        if (!t.startsWith("{\"error\"") || t.length() > 64 * 1024) {
            return Optional.empty();
        }
        try {
            JsonNode error = Json.mapper().readTree(t).path("error");
            String code = error.path("code").asString("");
            if (!error.path("message").isString()) {
                return Optional.empty();
            }
            for (ErrorCode c : ErrorCode.values()) {
                if (c.name().equals(code)) {
                    return Optional.of(visible(c));
                }
            }
        } catch (RuntimeException e) {
            return Optional.empty();
        }
        return Optional.empty();
    }

    /** A failure of the gateway's own making (no upstream text): recorded with its cause. */
    public Outcome local(String method, Optional<String> tool, ErrorCode code, String trustedMessage, Throwable cause) {
        Ref ref = Ref.random();
        record(new Incident(ref, clock.instant(), code, method, tool, Optional.of(upstream), Optional.empty(),
                java.util.List.of(), cause == null ? java.util.List.of() : Incident.chainOf(cause))
                .withReason(trustedMessage));
        return new Outcome(code, ref, trustedMessage);
    }

    /** Refusals of one kind within this window share one incident and its ref. */
    static final Duration REFUSAL_WINDOW = Duration.ofSeconds(1);
    private static final int MAX_REFUSAL_KINDS = 1024;

    private record RefusalKind(String method, Optional<String> tool, ErrorCode code) {
    }

    private final RefWindow<RefusalKind> refusals;

    /**
     * A call the gateway itself refused (a limit, an open breaker), with when to retry. A flood of
     * refusals is one event, not thousands: refusals of the same kind (method, tool, code) within
     * a second share one incident and ref (the audit log still has a line for each request).
     */
    Outcome refused(String method, Optional<String> tool, Guard.Refusal refusal) {
        Ref ref = refusals.refFor(new RefusalKind(method, tool, refusal.code()), (fresh, now) -> record(new Incident(
                fresh, now, refusal.code(), method, tool, Optional.of(upstream), Optional.empty(), java.util.List.of(),
                java.util.List.of()).withReason(refusal.reason())));
        return new Outcome(refusal.code(), ref, refusal.message(), Optional.of(refusal.retryAfter()));
    }

    /**
     * A name the caller asked for that does not exist (an unknown tool): the client is not told
     * the name, the operator is. Names asked for within a second share one incident each, so a
     * flood of guesses writes at most {@code MAX_REFUSAL_KINDS} incidents a second.
     */
    Outcome unknown(String method, String name, Optional<String> arguments) {
        String shown = AuditTrail.printable(name.length() > 128 ? name.substring(0, 128) : name);
        Ref ref = refusals.refFor(new RefusalKind(method, Optional.of(shown), ErrorCode.NOT_FOUND), (fresh, now) ->
                record(withArguments(new Incident(fresh, now, ErrorCode.NOT_FOUND, method, Optional.of(shown),
                        Optional.of(upstream), Optional.empty(), java.util.List.of(), java.util.List.of())
                        .withReason("The client called a tool this upstream does not have (or that policy hides)."),
                        arguments)));
        return new Outcome(ErrorCode.NOT_FOUND, ref, "Unknown tool");
    }

    private static Incident withArguments(Incident incident, Optional<String> arguments) {
        return arguments.map(incident::withArguments).orElse(incident);
    }

    private void record(Incident incident) {
        try {
            incidents.record(incident);
        } catch (RuntimeException e) {
            // a broken sink must not change what the client receives
        }
    }

    /** An upstream's internal error is, from here, the upstream failing. */
    private static ErrorCode visible(ErrorCode code) {
        return code == ErrorCode.INTERNAL_ERROR ? ErrorCode.UPSTREAM_ERROR : code;
    }

    /**
     * The request's arguments as an incident keeps them for the operator: every string sanitized
     * where it stands (never the serialized text), bounded ({@link dev.warden.core.incident.IncidentArguments}).
     */
    public static Optional<String> argumentsOf(Optional<JsonNode> params) {
        return params.map(p -> p.get("arguments")).filter(a -> a != null && !a.isNull())
                .map(dev.warden.core.incident.IncidentArguments::of);
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
        return redactSuccessfulResults ? mapStrings(result, resultText, 0) : result;
    }

    /** A tool's successful result: as {@link #cleanSuccess(JsonNode)}, unless this tool's results are kept as they are. */
    public JsonNode cleanSuccess(String tool, JsonNode result) {
        return redactsResultsOf.test(tool) ? mapStrings(result, resultText, 0) : result;
    }

    /** Whether a tool's results lose their credentials: the upstream's setting, or the tool's own. */
    private final java.util.function.Predicate<String> redactsResultsOf;

    /** A log or progress message from the upstream: every string in it sanitized with the upstream's policy. */
    public JsonNode cleanNotification(JsonNode params) {
        // A notification answers no request: nothing in it is taken for a caller's own.
        return cleanNotification(params, CallerInput.none());
    }

    /**
     * A log from the upstream sent to one client only, while it has calls in flight: what that
     * client sent in them ({@code sent}) may come back to it.
     */
    public JsonNode cleanNotification(JsonNode params, CallerInput sent) {
        // As the structure it is: a log's data that is JSON (or a string holding JSON) stays valid JSON.
        SanitizedJson clean = sanitizer.sanitizeJson(params, policy, ErrorCode.UPSTREAM_ERROR, sent);
        clean.findings().forEach(f -> onFinding.accept(f.category()));
        return clean.value();
    }

    /** Every string of {@code node} through {@code clean}; the nodes whose strings did not change are kept as they are. */
    private static JsonNode mapStrings(JsonNode node, java.util.function.UnaryOperator<String> clean, int depth) {
        if (depth > 64) {
            return Json.mapper().getNodeFactory().stringNode(ErrorCode.UPSTREAM_ERROR.defaultMessage());
        }
        if (node.isString()) {
            String out = clean.apply(node.stringValue());
            return out.equals(node.stringValue()) ? node : Json.mapper().getNodeFactory().stringNode(out);
        }
        if (node instanceof ObjectNode object) {
            ObjectNode copy = null;
            for (Map.Entry<String, JsonNode> field : object.properties()) {
                JsonNode cleaned = mapStrings(field.getValue(), clean, depth + 1);
                if (cleaned != field.getValue()) {
                    if (copy == null) {
                        copy = object.deepCopy();
                    }
                    copy.set(field.getKey(), cleaned);
                }
            }
            return copy == null ? object : copy;
        }
        if (node instanceof ArrayNode array) {
            ArrayNode copy = null;
            for (int i = 0; i < array.size(); i++) {
                JsonNode cleaned = mapStrings(array.get(i), clean, depth + 1);
                if (cleaned != array.get(i)) {
                    if (copy == null) {
                        copy = array.deepCopy();
                    }
                    copy.set(i, cleaned);
                }
            }
            return copy == null ? array : copy;
        }
        return node;
    }

    /**
     * Error text some servers encode twice ({@code "\"Error: …\""}) is decoded once; anything else
     * is left as it is.
     */
    static String decodedOnce(String text) {
        String t = text.strip();
        if (t.length() >= 2 && t.charAt(0) == '"' && t.charAt(t.length() - 1) == '"') {
            try {
                JsonNode inner = Json.mapper().readTree(t);
                if (inner != null && inner.isString()) {
                    return inner.stringValue();
                }
            } catch (RuntimeException e) {
                return text;
            }
        }
        return text;
    }

    /**
     * The TypeScript SDK prefixes error texts with {@code "MCP error <code>: "}, sometimes twice;
     * the code is carried properly already, so the prefixes go.
     */
    static String withoutSdkPrefix(String text) {
        String t = text;
        while (t.startsWith("MCP error ")) {
            int i = "MCP error ".length();
            if (i < t.length() && t.charAt(i) == '-') {
                i++;
            }
            int digits = i;
            while (i < t.length() && Character.isDigit(t.charAt(i))) {
                i++;
            }
            if (i == digits || !t.startsWith(": ", i)) {
                break;
            }
            t = t.substring(i + 2);
        }
        return t;
    }

    /**
     * A code read from the words of the text; an upstream failure when nothing says otherwise. The
     * caller's mistakes (a missing file, a directory where a file was meant, SQL that does not
     * parse, a division by zero, an invalid URL) get the code that says so, never a retryable one.
     */
    static ErrorCode classify(String text, ErrorCode fallback) {
        String t = text.length() > CLASSIFY_CHARS ? text.substring(0, CLASSIFY_CHARS) : text;
        t = t.toLowerCase(Locale.ROOT);
        Optional<ErrorCode> http = HttpStatus.in(t).flatMap(HttpStatus::code);
        if (http.isPresent()) {
            // A tool that fetched what the caller named says how that went: a 404 is the caller's.
            return http.get();
        }
        if (any(t, "permission denied", "forbidden", "unauthorized", "not allowed", "access denied", "eacces",
                "read-only transaction", "eperm", "not authorized", "outside allowed", "operation not permitted",
                "blocked request", "blocked url", "disallowed")) {
            return ErrorCode.PERMISSION_DENIED;
        }
        if (any(t, "not found", "no such", "does not exist", "doesn't exist", "enoent", "unknown ",
                "could not find", "cannot find", "can't find", "no match")) {
            return ErrorCode.NOT_FOUND;
        }
        if (any(t, "timed out", "timeout", "deadline exceeded", "etimedout")) {
            return ErrorCode.TIMEOUT;
        }
        if (any(t, "rate limit", "too many requests", "quota exceeded")) {
            return ErrorCode.RATE_LIMITED;
        }
        if (any(t, "already exists", "conflict", "duplicate", "eexist", "unique constraint")) {
            return ErrorCode.CONFLICT;
        }
        if (any(t, "invalid", "validation", "must be", "is required", "expected ", "eisdir", "enotdir",
                "is a directory", "not a directory", "illegal operation on a directory", "syntax error",
                "division by zero", "divide by zero", "incomplete input", "malformed", "cannot parse", "could not parse",
                "unable to parse", "out of range", "not a valid", "unsupported protocol", "bad request")) {
            return ErrorCode.VALIDATION_ERROR;
        }
        return fallback;
    }

    private static boolean any(String text, String... words) {
        for (String w : words) {
            if (text.contains(w)) {
                return true;
            }
        }
        return false;
    }

    /** The text blocks of an {@code isError} result, joined. */
    static String textBlocks(JsonNode result) {
        StringBuilder b = new StringBuilder();
        for (JsonNode block : result.path("content")) {
            if ("text".equals(block.path("type").asString("")) && block.path("text").isString()) {
                if (!b.isEmpty()) {
                    b.append('\n');
                }
                b.append(block.path("text").stringValue());
            }
        }
        return b.toString();
    }

    /** The text of an {@code isError} result: its text blocks, joined; its structured content if it has none. */
    static String errorText(JsonNode result) {
        String text = textBlocks(result);
        return text.isEmpty() && result.has("structuredContent") ? result.get("structuredContent").toString() : text;
    }
}
