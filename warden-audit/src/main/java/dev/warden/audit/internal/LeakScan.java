package dev.warden.audit.internal;

import dev.warden.core.error.ErrorCode;
import dev.warden.core.sanitize.CallerInput;
import dev.warden.core.sanitize.JsonFinding;
import dev.warden.core.sanitize.Policy;
import dev.warden.core.sanitize.Sanitizer;
import dev.warden.core.sanitize.detection.Category;
import dev.warden.core.sanitize.detection.Finding;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiConsumer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The sanitizer over what came back, as the gateway runs it (REDACT, each JSON value as the structure
 * it is, what the caller sent kept as the caller's own): a leak is a span the sanitizer would replace,
 * so a text it leaves unchanged (harmless text, an answer Warden sanitized already, the frame of a
 * database message it keeps) has none. Where it looks: a JSON-RPC error
 * whole ({@code /error/message}, {@code /error/data/…}); an {@code isError} result's content and
 * structured content; every result's {@code _meta}; a successful result for credentials only (a file
 * server's listing holds paths by design); a log notification's {@code /params/data}; and text such
 * as stderr.
 */
public final class LeakScan {

    /** A sensitive span: what it is, where, and its text (for a fingerprint only, never to show). */
    public record Leak(Category category, String kind, String location, String span) {
        public Leak {
            Objects.requireNonNull(category, "category");
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(location, "location");
            Objects.requireNonNull(span, "span");
        }

        @Override
        public String toString() {
            return "Leak[" + category + " " + kind + " at " + location + "]";
        }
    }

    /** A hostile value the caller sent, found verbatim at {@code location} of an error. */
    public record Reflection(String location, String value) {
        @Override
        public String toString() {
            return "Reflection[at " + location + "]";
        }
    }

    private static final int MAX_STRINGS = 10_000;
    private static final int MAX_DEPTH = 64;

    private final Sanitizer sanitizer;
    /**
     * The sanitizer's personal-data detector (off in its default set, and in {@code sanitizer}), with
     * the credential detector beside it: {@code user:pass@db.corp} in a URL is a credential, not an email.
     */
    private final Sanitizer personal;

    public LeakScan(Sanitizer sanitizer) {
        this.sanitizer = Objects.requireNonNull(sanitizer, "sanitizer");
        Sanitizer.Builder pii = Sanitizer.builder().pii();
        for (Category c : Category.values()) {
            if (c != Category.PII && c != Category.SECRET) {
                pii.disable(c);
            }
        }
        this.personal = pii.build();
    }

    /**
     * Instructions aimed at the model (the sanitizer's injection detector) in a successful result,
     * wherever the model reads it: a tool's content and structured content, a resource's contents,
     * a prompt's messages and description ({@code _meta} aside). What the caller sent is its own.
     * The detector is tuned for errors; in a document a phrase counts only where {@link AimedAtModel}
     * confirms it is an override, a role hijack, a fake chat marker or exfiltration ("You are now
     * ready to deploy." and a lone "IMPORTANT:" are no instructions in a document, though they are in
     * an error's text).
     */
    public List<Leak> instructions(ObjectNode message, CallerInput caller) {
        List<Leak> found = new ArrayList<>();
        if (!(message.path("result") instanceof ObjectNode r) || r.path("isError").asBoolean(false)) {
            return found;
        }
        for (Map.Entry<String, JsonNode> p : r.properties()) {
            if (p.getKey().equals("_meta")) {
                continue;
            }
            List<JsonFinding> findings = sanitizer.sanitizeJson(p.getValue(), Policy.REDACT, ErrorCode.INTERNAL_ERROR,
                    caller).findings();
            for (JsonFinding f : findings) {
                if (f.category() != Category.INJECTION) {
                    continue;
                }
                String span = Spans.of(p.getValue(), f);
                if (!caller.owns(span) && AimedAtModel.confirms(Spans.text(p.getValue(), f), f.finding().start(),
                        f.finding().end())) {
                    found.add(new Leak(f.category(), f.finding().kind(), "/result/" + pointerStep(p.getKey())
                            + f.pointer(), span));
                }
            }
        }
        return found;
    }

    /**
     * Personal data (the sanitizer's PII detector: emails, phone numbers, Luhn-valid card numbers,
     * US social security numbers) anywhere in an answer, error or result; what the caller sent is its
     * own, and an address at a domain reserved for examples ({@code example.com}, {@code .invalid},
     * {@code .test}) belongs to nobody.
     */
    public List<Leak> personal(ObjectNode message, CallerInput caller) {
        List<Leak> found = new ArrayList<>();
        for (String field : new String[] {"error", "result"}) {
            JsonNode value = message.get(field);
            if (value == null) {
                continue;
            }
            List<JsonFinding> all = personal.sanitizeJson(value, Policy.REDACT, ErrorCode.INTERNAL_ERROR, caller)
                    .findings();
            for (JsonFinding f : all) {
                String span = Spans.of(value, f);
                boolean inSecret = all.stream().anyMatch(o -> o.category() == Category.SECRET
                        && o.pointer().equals(f.pointer()) && o.finding().start() < f.finding().end()
                        && f.finding().start() < o.finding().end());
                if (f.category() == Category.PII && !inSecret
                        && !PersonalData.placeholder(f.finding().kind(), span, Spans.after(value, f, 2))) {
                    found.add(new Leak(f.category(), f.finding().kind(), "/" + field + f.pointer(), span));
                }
            }
        }
        return found;
    }

    /** Personal data in plain text (stderr), all at {@code location}; see {@link #personal(ObjectNode, CallerInput)}. */
    public List<Leak> personal(String text, String location, CallerInput caller) {
        List<Finding> all = personal.sanitize(text, Policy.REDACT, ErrorCode.INTERNAL_ERROR, caller).findings().stream()
                .filter(Finding::replacedByRedact).toList();
        String cleaned = all.isEmpty() ? text : Sanitizer.clean(text);
        List<String> secrets = all.stream().filter(f -> f.category() == Category.SECRET)
                .map(f -> Spans.span(cleaned, f.start(), f.end())).toList();
        List<Leak> found = new ArrayList<>();
        for (Finding f : all) {
            String span = Spans.span(cleaned, f.start(), f.end());
            if (f.category() == Category.PII
                    && !PersonalData.placeholder(f.kind(), span, Spans.span(cleaned, f.end(), f.end() + 2))
                    && secrets.stream().noneMatch(secret -> secret.contains(span) || span.contains(secret))) {
                found.add(new Leak(f.category(), f.kind(), location, span));
            }
        }
        return found;
    }

    /** A member name as a JSON pointer's step (RFC 6901). */
    private static String pointerStep(String key) {
        return key.replace("~", "~0").replace("/", "~1");
    }

    /** Leaks in a JSON-RPC answer. */
    public List<Leak> answer(ObjectNode message, CallerInput caller) {
        List<Leak> leaks = new ArrayList<>();
        if (message.has("error")) {
            scan(message.get("error"), "/error", caller, false, leaks);
        }
        JsonNode result = message.path("result");
        if (result instanceof ObjectNode r) {
            if (r.path("isError").asBoolean(false)) {
                if (r.has("content")) {
                    scan(r.get("content"), "/result/content", caller, false, leaks);
                }
                if (r.has("structuredContent")) {
                    scan(r.get("structuredContent"), "/result/structuredContent", caller, false, leaks);
                }
            } else {
                scan(r, "/result", caller, true, leaks);
            }
            if (r.has("_meta")) {
                scan(r.get("_meta"), "/result/_meta", caller, false, leaks);
            }
        }
        return leaks;
    }

    /** Leaks in a notification: a log message's data, a progress message. */
    public List<Leak> notification(ObjectNode message, CallerInput caller) {
        List<Leak> leaks = new ArrayList<>();
        JsonNode params = message.path("params");
        if (params.has("data")) {
            scan(params.get("data"), "/params/data", caller, false, leaks);
        }
        if (params.path("message").isString()) {
            scan(params.get("message"), "/params/message", caller, false, leaks);
        }
        if (params.has("_meta")) {
            scan(params.get("_meta"), "/params/_meta", caller, false, leaks);
        }
        return leaks;
    }

    /** Leaks in plain text (stderr, a frame that was no JSON), all at {@code location}. */
    public List<Leak> text(String text, String location, CallerInput caller) {
        return textLeaks(sanitizer, text, location, caller).stream().filter(l -> l.category() != Category.PII)
                .toList();
    }

    /** What {@code with} would replace in {@code text}, each at {@code location} with its span. */
    private static List<Leak> textLeaks(Sanitizer with, String text, String location, CallerInput caller) {
        List<Leak> leaks = new ArrayList<>();
        List<Finding> findings = with.sanitize(text, Policy.REDACT, ErrorCode.INTERNAL_ERROR, caller).findings();
        String cleaned = findings.isEmpty() ? text : Sanitizer.clean(text);
        for (Finding f : findings) {
            if (f.replacedByRedact()) {
                leaks.add(new Leak(f.category(), f.kind(), location, Spans.span(cleaned, f.start(), f.end())));
            }
        }
        return leaks;
    }

    /**
     * Where a hostile value sent comes back verbatim in an error (a JSON-RPC error, or an isError
     * result's content and structured content).
     */
    public List<Reflection> reflections(ObjectNode message, List<String> sent) {
        List<Reflection> found = new ArrayList<>();
        if (sent.isEmpty()) {
            return found;
        }
        BiConsumer<String, String> check = (pointer, text) -> {
            for (String value : sent) {
                if (text.contains(value)) {
                    found.add(new Reflection(pointer, value));
                    return;
                }
            }
        };
        if (message.has("error")) {
            strings(message.get("error"), "/error", check);
        }
        JsonNode result = message.path("result");
        if (result.path("isError").asBoolean(false)) {
            strings(result.path("content"), "/result/content", check);
            strings(result.path("structuredContent"), "/result/structuredContent", check);
        }
        return found;
    }

    private void scan(JsonNode value, String prefix, CallerInput caller, boolean secretsOnly, List<Leak> into) {
        List<JsonFinding> findings = sanitizer.sanitizeJson(value, Policy.REDACT, ErrorCode.INTERNAL_ERROR, caller)
                .findings();
        for (JsonFinding f : findings) {
            if (f.category() == Category.PII || !f.finding().replacedByRedact()
                    || (secretsOnly && f.category() != Category.SECRET)) {
                continue;
            }
            into.add(new Leak(f.category(), f.finding().kind(), prefix + f.pointer(), Spans.of(value, f)));
        }
    }

    /** Each string value under {@code node}, with its pointer; bounded in depth and count. */
    private static void strings(JsonNode node, String prefix, BiConsumer<String, String> consumer) {
        walk(node, prefix, consumer, 0, new int[] {0});
    }

    private static void walk(JsonNode node, String pointer, BiConsumer<String, String> consumer, int depth, int[] seen) {
        if (node == null || depth > MAX_DEPTH || seen[0] >= MAX_STRINGS) {
            return;
        }
        if (node.isString()) {
            seen[0]++;
            consumer.accept(pointer, node.asString());
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                walk(node.get(i), pointer + "/" + i, consumer, depth + 1, seen);
            }
        } else if (node.isObject()) {
            for (Map.Entry<String, JsonNode> e : node.properties()) {
                walk(e.getValue(), pointer + "/" + pointerStep(e.getKey()), consumer,
                        depth + 1, seen);
            }
        }
    }
}
