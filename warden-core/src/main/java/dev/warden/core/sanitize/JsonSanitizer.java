package dev.warden.core.sanitize;

import dev.warden.core.error.ErrorCode;
import dev.warden.core.json.Json;
import dev.warden.core.sanitize.credential.SecretKeys;
import dev.warden.core.sanitize.database.DatabaseMessages;
import dev.warden.core.sanitize.detection.Category;
import dev.warden.core.sanitize.detection.Finding;
import dev.warden.core.sanitize.path.JsonPointers;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * One run of {@link Sanitizer#sanitizeJson}: each string sanitized where it stands, so a stack trace
 * inside JSON is seen as its lines and no replacement lands in JSON syntax; strings holding JSON are
 * walked as JSON. The rules, one by one: docs/design/sanitizer.md. Linear in the input; not
 * thread-safe (one instance per call).
 */
final class JsonSanitizer {

    static final int MAX_DEPTH = Json.MAX_NESTING_DEPTH;
    static final int MAX_EMBEDDING = 4;
    static final int MAX_EMBEDDED_CHARS = 1 << 20;
    private static final String TRUNCATION_MARK = " [truncated]";
    private static final String SECRET = "[redacted:secret]";
    private static final int MAX_REMEMBERED = 4096;
    private static final int MAX_REMEMBERED_CHARS = 1024;

    private final Sanitizer sanitizer;
    private final ErrorCode fallbackCode;
    private final CallerInput caller;
    private final JsonNodeFactory nodes = JsonNodeFactory.instance;

    private boolean strict;
    private boolean record;
    private String strictMessage = "";
    private int budget;
    private boolean truncated;
    private boolean injection;
    private final List<JsonFinding> findings = new ArrayList<>();
    /**
     * Strings already found clean in this walk (member names above all: an array of records repeats
     * the same few, and often the same values). Sanitizing a short text costs about a microsecond,
     * mostly fixed cost, which would dominate a wide or deep value; a clean string stays clean for the
     * same caller. The set holds the tree's own strings, so it costs no copy.
     */
    private final Set<String> clean = new HashSet<>();
    private Optional<ErrorCode> suggested = Optional.empty();

    JsonSanitizer(Sanitizer sanitizer, ErrorCode fallbackCode, CallerInput caller) {
        this.sanitizer = sanitizer;
        this.fallbackCode = fallbackCode;
        this.caller = caller;
    }

    SanitizedJson run(JsonNode root, Policy policy) {
        // First pass: redact, and learn what is there (injection, the suggested code).
        record = true;
        budget = sanitizer.outputBudget();
        JsonNode redacted = walk(root, JsonLocation.root(), 0, 0, false);
        Policy applied = policy == Policy.REDACT && injection ? Policy.STRICT : policy;
        return switch (applied) {
            case PASSTHROUGH -> new SanitizedJson(root, findings, applied, suggested, false);
            case REDACT -> new SanitizedJson(redacted, findings, applied, suggested, truncated);
            case STRICT -> {
                record = false;
                strict = true;
                strictMessage = suggested.orElse(fallbackCode).defaultMessage();
                budget = sanitizer.outputBudget();
                truncated = false;
                JsonNode value = walk(root, JsonLocation.root(), 0, 0, false);
                yield new SanitizedJson(value, findings, applied, suggested, truncated);
            }
        };
    }

    private JsonNode walk(JsonNode node, JsonLocation at, int depth, int embedding, boolean secret) {
        if (depth >= MAX_DEPTH && node.isContainer()) {
            // Deeper than the codec parses: cut, which also bounds the recursion.
            truncated = true;
            return nodes.stringNode("[truncated]");
        }
        if (node.isString()) {
            String text = node.stringValue();
            String out = string(text, at, depth, embedding, secret);
            return out == text ? node : nodes.stringNode(out);
        }
        if (node.isObject()) {
            return object((ObjectNode) node, at, depth, embedding, secret);
        }
        if (node.isArray()) {
            return array((ArrayNode) node, at, depth, embedding, secret);
        }
        if (secret && node.isNumber()) {
            note(new Finding(Category.SECRET, "secret", 0, node.asString().length()), at, false);
            return nodes.numberNode(0);
        }
        return node; // booleans, null, numbers
    }

    private JsonNode object(ObjectNode node, JsonLocation at, int depth, int embedding, boolean secret) {
        ObjectNode copy = null;
        Map<String, Integer> suffixes = null;
        int index = 0;
        for (Map.Entry<String, JsonNode> member : node.properties()) {
            String key = member.getKey();
            JsonLocation here = at.member(key);
            String name = key(key, here);
            JsonNode value = member.getValue();
            Optional<String> serverName = secret || strict || !(value.isString() || value.isNumber())
                    ? Optional.empty() : ServerNameKeys.kindOf(key, node);
            Optional<String> label = secret || strict || !value.isString() ? Optional.empty()
                    : ServerNameKeys.databaseLineLabel(node, key);
            JsonNode out = serverName.isPresent() ? serverName(value, here, serverName.get())
                    : label.isPresent() ? databaseLine(node, value.stringValue(), label.get(), here, value)
                    : walk(value, here, depth + 1, embedding, secret || SecretKeys.isSecret(key)
                            && !(value.isString() && SecretKeys.isWorkingDirectory(key, value.stringValue())));
            if (copy == null && (out != value || name != key)) {
                copy = nodes.objectNode();
                Iterator<Map.Entry<String, JsonNode>> before = node.properties().iterator();
                for (int i = 0; i < index; i++) {
                    Map.Entry<String, JsonNode> e = before.next();
                    copy.set(e.getKey(), e.getValue());
                }
            }
            if (copy != null) {
                if (copy.has(name)) {
                    // A renamed member met a name already there: number it. The next number per name is
                    // kept, so many members renamed alike cost one probe each, not one per earlier one.
                    suffixes = suffixes == null ? new HashMap<>() : suffixes;
                    int n = suffixes.getOrDefault(name, 2);
                    while (copy.has(name + "~" + n)) {
                        n++;
                    }
                    suffixes.put(name, n + 1);
                    name = name + "~" + n;
                }
                copy.set(name, out);
            }
            index++;
        }
        return copy == null ? node : copy;
    }

    /**
     * A driver's error field naming something only the server knows ({@link ServerNameKeys}): kept
     * when the caller sent it, else its kind's marker; a text that is more than a name (a long
     * message under {@code where}) is sanitized as text as well, by being replaced whole.
     */
    private JsonNode serverName(JsonNode value, JsonLocation at, String kind) {
        String text = value.asString();
        if (text.isEmpty() || caller.owns(text) || Markers.isMarker(text)) {
            return value;
        }
        note(new Finding(ServerNameKeys.categoryOf(kind), kind, 0, text.length()), at, false);
        return nodes.stringNode(spend("[redacted:" + kind + "]", false));
    }

    /**
     * A PostgreSQL error object's {@code detail} or {@code hint} (node-postgres puts the server's
     * DETAIL and HINT lines there, without their labels): read as the line it was, so its known
     * shapes keep what the caller sent and redact the rest.
     */
    private JsonNode databaseLine(JsonNode object, String text, String label, JsonLocation at, JsonNode value) {
        // Read under the object's own message, as the server wrote them, so its reader knows the line.
        String message = object.path("message").asString(object.path("error").asString(""));
        String head = message.isEmpty() || message.indexOf('\n') >= 0 ? "ERROR:  error\n" : "ERROR:  " + message + "\n";
        String whole = head + label + text;
        SanitizedText result = sanitizer.sanitize(whole, Policy.REDACT, fallbackCode, caller);
        int from = head.length() + label.length();
        boolean found = false;
        for (Finding f : result.findings()) {
            if (f.end() > from) {
                found = true;
                int s = Math.max(0, f.start() - from);
                note(new Finding(f.category(), f.kind(), s, Math.max(s, f.end() - from)), at, false);
            }
        }
        if (!found) {
            return value;
        }
        String out = result.output();
        int line = out.lastIndexOf("\n" + label);
        String kept = line >= 0 ? out.substring(line + 1 + label.length()) : "[redacted:" + DatabaseMessages.DETAIL + "]";
        return nodes.stringNode(spend(kept, result.truncated()));
    }

    private JsonNode array(ArrayNode node, JsonLocation at, int depth, int embedding, boolean secret) {
        ArrayNode copy = null;
        for (int i = 0; i < node.size(); i++) {
            JsonNode item = node.get(i);
            JsonNode out = walk(item, at.item(i), depth + 1, embedding, secret);
            if (copy == null && out != item) {
                copy = nodes.arrayNode(node.size());
                for (int j = 0; j < i; j++) {
                    copy.add(node.get(j));
                }
            }
            if (copy != null) {
                copy.add(out);
            }
        }
        return copy == null ? node : copy;
    }

    /** A member name: sanitized as text; returns {@code key} itself when it stays. */
    private String key(String key, JsonLocation at) {
        if (key.isEmpty() || clean.contains(key)) {
            return key;
        }
        SanitizedText result = sanitizer.sanitize(key, Policy.REDACT, fallbackCode, caller);
        remember(key, result);
        for (Finding f : result.findings()) {
            note(f, at, true);
        }
        if (result.has(Category.INJECTION)) {
            // An injection: the tree goes strict, and the name is no longer text but a marker.
            return "[redacted:injection]";
        }
        if (result.truncated()) {
            truncated = true;
        }
        String out = result.output();
        return out.equals(key) ? key : out; // changed: a finding, or control characters stripped
    }

    /** A string value; returns {@code text} itself when it stays. */
    private String string(String text, JsonLocation at, int depth, int embedding, boolean secret) {
        if (text.isEmpty()) {
            return text;
        }
        if (secret && !Markers.isMarker(text)) {
            note(new Finding(Category.SECRET, "secret", 0, text.length()), at, false);
            return spend(strict ? strictMessage : SECRET, false);
        }
        if (strict) {
            return spend(strictMessage, false);
        }
        if (embedding < MAX_EMBEDDING && text.length() <= MAX_EMBEDDED_CHARS) {
            JsonNode decoded = decoded(text);
            if (decoded != null) {
                JsonNode out = walk(decoded, at.decoded(), depth + 1, embedding + 1, false);
                return out == decoded ? text : Json.write(out);
            }
            Optional<JsonTail> tail = JsonTail.of(text);
            if (tail.isPresent()) {
                String prefix = text(tail.get().prefix(), at);
                JsonNode out = walk(tail.get().json(), at.decoded(), depth + 1, embedding + 1, false);
                return prefix == tail.get().prefix() && out == tail.get().json() ? text
                        : prefix + Json.write(out) + tail.get().suffix();
            }
        }
        if (at.memberName().filter(JsonPointers::isPointerMember).isPresent() && JsonPointers.wholeValueIsPointer(text)) {
            return pointer(text, at);
        }
        return text(text, at);
    }

    /**
     * A pointer member's value that is a JSON Pointer: read as the pointer it is, so a path finding
     * over the whole of it is none; anything else found in it (a secret as a segment) still counts.
     */
    private String pointer(String text, JsonLocation at) {
        SanitizedText result = sanitizer.sanitize(text, Policy.REDACT, fallbackCode, caller);
        // the path finding over it, cut short where the caller's own tail starts, is the pointer itself
        boolean onlyThePointer = result.findings().stream().allMatch(f -> f.category() == Category.FILE_PATH
                && f.start() == 0);
        return onlyThePointer && !result.truncated() ? spend(text, false) : text(text, at);
    }

    /** Text sanitized as text; returns {@code text} itself when it stays. */
    private String text(String text, JsonLocation at) {
        if (clean.contains(text)) {
            return spend(text, false);
        }
        SanitizedText result = sanitizer.sanitize(text, Policy.REDACT, fallbackCode, caller);
        remember(text, result);
        for (Finding f : result.findings()) {
            note(f, at, false);
        }
        if (suggested.isEmpty()) {
            suggested = result.suggestedCode();
        }
        String out = result.output();
        boolean same = result.findings().isEmpty() && !result.truncated() && out.equals(text);
        return spend(same ? text : out, result.truncated());
    }

    /**
     * The JSON a string holds, if it holds an object or an array (or a JSON string that does, encoded
     * twice); otherwise null. Only the first and last characters are looked at before parsing, so
     * prose is never parsed.
     */
    private static JsonNode decoded(String text) {
        int start = 0;
        int end = text.length();
        while (start < end && isJsonSpace(text.charAt(start))) {
            start++;
        }
        while (end > start && isJsonSpace(text.charAt(end - 1))) {
            end--;
        }
        if (end - start < 2) {
            return null;
        }
        char first = text.charAt(start);
        char last = text.charAt(end - 1);
        boolean container = (first == '{' && last == '}') || (first == '[' && last == ']');
        boolean encoded = first == '"' && last == '"' && end - start > 3
                && (text.charAt(start + 1) == '{' || text.charAt(start + 1) == '[');
        if (!container && !encoded) {
            return null;
        }
        try {
            JsonNode node = JsonTail.READER.readTree(text);
            return node == null || node.isMissingNode() ? null : node;
        } catch (JacksonException e) {
            return null; // not JSON after all (or nested beyond the parser's limit): text
        }
    }

    private static boolean isJsonSpace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r';
    }

    private void remember(String text, SanitizedText result) {
        if (text.length() <= MAX_REMEMBERED_CHARS && clean.size() < MAX_REMEMBERED && result.findings().isEmpty()
                && !result.truncated() && result.output().equals(text)) {
            clean.add(text);
        }
    }

    /** Takes {@code out} from the budget, cutting it (and marking the cut) where the budget ends. */
    private String spend(String out, boolean alreadyCut) {
        if (alreadyCut) {
            truncated = true;
        }
        if (out.length() <= budget) {
            budget -= out.length();
            return out;
        }
        truncated = true;
        if (budget == 0) {
            return "";
        }
        int cut = budget;
        if (Character.isHighSurrogate(out.charAt(cut - 1))) {
            cut--;
        }
        budget = 0;
        return out.substring(0, cut) + TRUNCATION_MARK;
    }

    /** An injection anywhere in the tree makes it strict (one may be spread over several strings). */
    private void note(Finding finding, JsonLocation at, boolean inKey) {
        if (finding.category() == Category.INJECTION) {
            injection = true;
        }
        if (record) {
            findings.add(new JsonFinding(at, inKey, finding));
        }
    }
}
