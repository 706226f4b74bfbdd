package dev.warden.gateway.internal.failure;

import dev.warden.core.error.ErrorCode;
import dev.warden.core.error.Ref;
import dev.warden.core.error.Violation;
import dev.warden.core.failure.CallerWords;
import dev.warden.core.failure.Classifier;
import dev.warden.core.failure.QueryFault;
import dev.warden.core.json.Json;
import dev.warden.core.sanitize.CallerInput;
import dev.warden.core.sanitize.JsonFinding;
import dev.warden.core.sanitize.Policy;
import dev.warden.core.sanitize.SanitizedJson;
import dev.warden.core.sanitize.SanitizedText;
import dev.warden.core.sanitize.Sanitizer;
import dev.warden.core.sanitize.detection.Category;
import dev.warden.core.sanitize.detection.Finding;
import dev.warden.core.shape.EmbeddedJson;
import dev.warden.core.shape.ErrorShapes;
import dev.warden.core.shape.Extracted;
import dev.warden.core.shape.ProseViolations;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import tools.jackson.databind.JsonNode;

/**
 * One failure an upstream reported, read: its text normalized ({@link UpstreamText}), its
 * structure read for a well-known error shape, each part sanitized as what it is with the
 * upstream's policy, given its code ({@link Classifier}), and recorded with the original
 * ({@link UpstreamIncidents}). What comes out is what the client may see.
 */
final class FailureReader {

    /** The well-known error shapes an upstream's failure is read for (JSON:API, problem details, Zod…), users' own included. */
    private static final ErrorShapes SHAPES = ErrorShapes.installed();
    /** What the sanitizer puts in place of a database error's text. */
    private static final String DATABASE_PLACEHOLDER = "[redacted:database-error]";

    private final Sanitizer sanitizer;
    private final Policy policy;
    private final Consumer<Category> onFinding;
    private final UpstreamIncidents incidents;

    FailureReader(Sanitizer sanitizer, Policy policy, Consumer<Category> onFinding, UpstreamIncidents incidents) {
        this.sanitizer = sanitizer;
        this.policy = policy;
        this.onFinding = onFinding;
        this.incidents = incidents;
    }

    /** This reader, recording to {@code incidents} instead (a client connection's view of them). */
    FailureReader recordingTo(UpstreamIncidents incidents) {
        return new FailureReader(sanitizer, policy, onFinding, incidents);
    }

    /**
     * Sanitizes, codes and records what the upstream said. {@code caller} and {@code inputs} are
     * what the client sent (it may come back to it, and is never read for the code);
     * {@code argumentNames} what a prose validation failure may point at.
     */
    ErrorPipeline.Outcome read(String method, Optional<String> tool, ErrorPipeline.Said said, ErrorCode fallback,
            CallerInput caller, Set<String> inputs, Set<String> argumentNames, Optional<String> arguments) {
        String text = UpstreamText.withoutSdkPrefix(UpstreamText.decodedOnce(said.text()));
        // An upstream that already speaks Warden's error object (another Warden, say) keeps its code.
        Optional<ErrorCode> declared = UpstreamText.declaredCode(text);
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
        Optional<String> dataWords = data.map(UpstreamText::leaves);
        Optional<Extracted> extracted = declared.isPresent() ? Optional.empty()
                : data.flatMap(SHAPES::read).or(() -> textTree.flatMap(SHAPES::read))
                        // prose that names one of the caller's arguments ("email" must be a valid email)
                        .or(() -> textTree.isPresent() ? Optional.empty() : ProseViolations.read(prose, argumentNames))
                        .or(() -> dataWords.flatMap(d -> ProseViolations.read(d, argumentNames)));

        List<Finding> findings = new ArrayList<>();
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
            // Upstream data is never dumped into the message as JSON: prose stays prose; of a
            // structure, only its own message members and the database errors read in it (a
            // DETAIL naming the conflicting field) reach the model, sanitized; the rest is in
            // the incident only.
            shownData = clean.value().isString() ? Optional.of(clean.value().stringValue()) : sentences(clean);
        }
        findings.forEach(f -> onFinding.accept(f.category()));
        Optional<String> dataText = shownData;

        // The code is read from what the server said, never from what the caller sent: the caller's
        // own words (a value it typed, a name it quoted in its SQL) are masked before reading.
        // (A database error's suggestion needs no such care: its code comes from the message's shape.)
        String serverText = text;
        String words = dataWords.map(d -> serverText + "\n" + d).orElse(serverText);
        Classifier.Decision decision = Classifier.decide(new Classifier.Evidence(declared,
                extracted.flatMap(Extracted::code), suggested, words, inputs, argumentNames, fallback,
                extracted.flatMap(Extracted::retryAfter)));
        ErrorCode code = decision.code();

        List<Violation> violations = extracted.map(e -> violations(e, caller)).orElse(List.of());
        String message = extracted.flatMap(Extracted::message)
                .map(m -> sanitizer.sanitize(m, policy, fallback, caller).output()).filter(m -> !m.isBlank())
                .or(() -> violations.isEmpty() ? Optional.empty() : Optional.of(violations.stream()
                        .map(Violation::line).collect(Collectors.joining("\n"))))
                .orElseGet(() -> UpstreamText.joined(shownText, dataText));
        if (message.isBlank()) {
            message = code.defaultMessage();
        }
        Optional<QueryFault> query = findings.stream().anyMatch(f -> f.category() == Category.DATABASE)
                && message.contains(DATABASE_PLACEHOLDER)
                ? QueryFault.of(CallerWords.masked(words, inputs, argumentNames)) : Optional.empty();
        if (query.isPresent()) {
            code = query.get().code();
            message = message.replace(DATABASE_PLACEHOLDER, query.get().message());
        }
        Ref ref = incidents.upstreamFailed(method, tool, code, said.original(), findings, arguments);
        Optional<Duration> retryAfter = code.retryable() ? decision.retryAfter() : Optional.empty();
        return new ErrorPipeline.Outcome(code, ref, message, retryAfter, violations);
    }

    /** The members in which a structure states its failure in words ({@code {"error": "…"}}). */
    private static final List<String> MESSAGE_MEMBERS = List.of("message", "error", "detail", "details", "reason",
            "description");

    /**
     * What of a sanitized structure is prose for the model, each once, one per line: its message
     * members' strings, and the strings in which a database error was read, at any depth.
     */
    private static Optional<String> sentences(SanitizedJson clean) {
        java.util.Set<String> sentences = new java.util.LinkedHashSet<>();
        List<JsonNode> items = new ArrayList<>();
        if (clean.value().isArray()) { // a list of failures ([{"path": "/email", "message": …}])
            clean.value().forEach(items::add);
        } else {
            items.add(clean.value());
        }
        for (JsonNode item : items.subList(0, Math.min(items.size(), 16))) {
            JsonNode at = item.path("pointer").isString() ? item.path("pointer") : item.path("path");
            String where = at.isString() && at.stringValue().startsWith("/") ? at.stringValue() + ": " : "";
            for (String member : MESSAGE_MEMBERS) {
                JsonNode value = item.path(member);
                if (value.isString() && !value.stringValue().isBlank()) {
                    sentences.add(where + value.stringValue());
                }
            }
        }
        for (JsonFinding f : clean.findings()) {
            JsonNode at = clean.value().at(f.pointer());
            if (f.category() == Category.DATABASE && !f.inKey() && at.isString() && !at.stringValue().isBlank()) {
                sentences.add(at.stringValue());
            }
        }
        return sentences.isEmpty() ? Optional.empty() : Optional.of(String.join("\n", sentences));
    }

    /** An extraction's violations, each message sanitized as the untrusted text it is; pointers are safe by construction. */
    private List<Violation> violations(Extracted extracted, CallerInput caller) {
        List<Violation> out = new ArrayList<>();
        for (Violation v : extracted.violations()) {
            String m = sanitizer.sanitize(v.message(), policy, ErrorCode.VALIDATION_ERROR, caller).output();
            out.add(new Violation(v.pointer(), m.isBlank() ? ErrorCode.VALIDATION_ERROR.defaultMessage() : m));
        }
        return out;
    }
}
