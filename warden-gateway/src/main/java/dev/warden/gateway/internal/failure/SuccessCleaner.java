package dev.warden.gateway.internal.failure;

import dev.warden.core.error.ErrorCode;
import dev.warden.core.json.Json;
import dev.warden.core.sanitize.CallerInput;
import dev.warden.core.sanitize.CredentialRedactor;
import dev.warden.core.sanitize.Policy;
import dev.warden.core.sanitize.SanitizedJson;
import dev.warden.core.sanitize.Sanitizer;
import dev.warden.core.sanitize.detection.Category;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What an upstream sends that is not a failure, on its way to the client: a successful result
 * loses only what is certainly a credential (and, with {@code pii}, personal data); a log or
 * progress notification is sanitized with the upstream's policy.
 */
final class SuccessCleaner {

    private static final CredentialRedactor CREDENTIALS = CredentialRedactor.ofDefaults();

    private final Sanitizer sanitizer;
    private final Policy policy;
    private final Consumer<Category> onFinding;
    /**
     * What a string of a successful result becomes: only what is certainly a credential is
     * replaced, over exactly its span ({@link CredentialRedactor}); with {@code pii}, personal data
     * too. Anything else comes back byte for byte.
     */
    private final UnaryOperator<String> resultText;
    private final boolean redactSuccessfulResults;
    /** Whether a tool's results lose their credentials: the upstream's setting, or the tool's own. */
    private final Predicate<String> redactsResultsOf;
    /** The instructions cleaned last: each new session of an upstream brings the same text. */
    private final AtomicReference<Cleaned> lastInstructions = new AtomicReference<>();

    private record Cleaned(String text, SanitizedJson clean) {
    }

    SuccessCleaner(Sanitizer sanitizer, Policy policy, Consumer<Category> onFinding, boolean redactSuccessfulResults,
            Predicate<String> redactsResultsOf, boolean pii) {
        this.sanitizer = sanitizer;
        this.policy = policy;
        this.onFinding = onFinding;
        this.redactSuccessfulResults = redactSuccessfulResults;
        this.redactsResultsOf = redactsResultsOf;
        if (pii) {
            Sanitizer.Builder personal = Sanitizer.builder().maxOutputChars(Integer.MAX_VALUE / 2).pii();
            for (Category c : Category.values()) {
                if (c != Category.PII) {
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

    /**
     * Credentials in a successful result are redacted (on by default): every string in its text
     * content and structured content, each where it stands, and only values that are certainly
     * credentials, over exactly their span; other findings (paths, hosts, code that names a
     * token) are left, as results carry them legitimately.
     */
    JsonNode cleanSuccess(JsonNode result) {
        return redactSuccessfulResults ? mapStrings(result, resultText, 0) : result;
    }

    /** A tool's successful result: as {@link #cleanSuccess(JsonNode)}, unless this tool's results are kept as they are. */
    JsonNode cleanSuccess(String tool, JsonNode result) {
        return redactsResultsOf.test(tool) ? mapStrings(result, resultText, 0) : result;
    }

    /**
     * An upstream's instructions, cleaned as a notification is. The same text as last time is not
     * scanned again (the sanitizer gives the same text the same answer); its findings are counted
     * again, as for any session that gets it.
     */
    String cleanInstructions(String instructions) {
        Cleaned last = lastInstructions.get();
        SanitizedJson clean;
        if (last != null && last.text().equals(instructions)) {
            clean = last.clean();
        } else {
            clean = sanitizer.sanitizeJson(Json.mapper().getNodeFactory().stringNode(instructions), policy,
                    ErrorCode.UPSTREAM_ERROR, CallerInput.none());
            lastInstructions.set(new Cleaned(instructions, clean));
        }
        clean.findings().forEach(f -> onFinding.accept(f.category()));
        return clean.value().asString("");
    }

    /** A log or progress message from the upstream: every string in it sanitized with the upstream's policy. */
    JsonNode cleanNotification(JsonNode params) {
        // A notification answers no request: nothing in it is taken for a caller's own.
        return cleanNotification(params, CallerInput.none());
    }

    /**
     * A log from the upstream sent to one client only, while it has calls in flight: what that
     * client sent in them ({@code sent}) may come back to it.
     */
    JsonNode cleanNotification(JsonNode params, CallerInput sent) {
        // As the structure it is: a log's data that is JSON (or a string holding JSON) stays valid JSON.
        SanitizedJson clean = sanitizer.sanitizeJson(params, policy, ErrorCode.UPSTREAM_ERROR, sent);
        clean.findings().forEach(f -> onFinding.accept(f.category()));
        return clean.value();
    }

    /** Every string of {@code node} through {@code clean}; the nodes whose strings did not change are kept as they are. */
    private static JsonNode mapStrings(JsonNode node, UnaryOperator<String> clean, int depth) {
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
}
