package dev.warden.core.shape;

import dev.warden.core.error.ErrorCode;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Violations read from a validation failure written as prose, when it names one of the arguments
 * the caller sent: the field is known only because the caller used that name, so nothing the
 * server alone knows becomes a pointer. Reads the forms of Joi, the TypeScript SDK, pydantic v1 and
 * Python jsonschema (docs/reference/sanitizer.md), only the first {@value #MAX_SCAN_CHARS}
 * characters, one pass per form: linear and bounded. Messages are the upstream's: sanitize them.
 */
public final class ProseViolations {

    static final int MAX_SCAN_CHARS = 8192;
    private static final String SHAPE = "prose";

    private ProseViolations() {
    }

    /** The violations {@code text} states about the caller's arguments {@code names}, if it states any. */
    public static Optional<Extracted> read(String text, Set<String> names) {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(names, "names");
        if (names.isEmpty() || text.isBlank()) {
            return Optional.empty();
        }
        String t = text.length() > MAX_SCAN_CHARS ? text.substring(0, MAX_SCAN_CHARS) : text;
        Extracted.Builder found = Extracted.builder(SHAPE).code(ErrorCode.VALIDATION_ERROR);
        quotedAtStart(t, names, found);
        if (!found.hasViolations()) {
            atTheEnd(t, names, found);
        }
        if (!found.hasViolations()) {
            nameLines(t, names, found);
        }
        if (!found.hasViolations()) {
            jsonschemaInstance(t, names, found);
        }
        return found.hasViolations() ? found.build() : Optional.empty();
    }

    /** {@code "email" must be a valid email}: the first line, when it starts with a quoted argument name. */
    private static void quotedAtStart(String t, Set<String> names, Extracted.Builder out) {
        String line = firstLine(t).strip();
        if (line.length() < 3 || (line.charAt(0) != '"' && line.charAt(0) != '\'')) {
            return;
        }
        int close = line.indexOf(line.charAt(0), 1);
        if (close > 1 && close + 1 < line.length() && line.charAt(close + 1) == ' '
                && names.contains(line.substring(1, close))) {
            out.violation(Pointers.append("", line.substring(1, close)), line);
        }
    }

    /**
     * {@code …: Invalid email at email}: a line that ends with " at NAME"; the message is what follows
     * the last ": ". Every such line counts (the TypeScript SDK writes one issue a line), so a second
     * missing argument is never dropped for the first.
     */
    private static void atTheEnd(String t, Set<String> names, Extracted.Builder out) {
        int from = 0;
        while (from < t.length()) {
            int end = t.indexOf('\n', from);
            String line = t.substring(from, end < 0 ? t.length() : end).strip();
            from = end < 0 ? t.length() : end + 1;
            int at = line.lastIndexOf(" at ");
            if (at < 0) {
                continue;
            }
            String name = line.substring(at + 4).strip();
            if (!names.contains(name)) {
                continue;
            }
            int colon = line.lastIndexOf(": ", at);
            String message = line.substring(colon < 0 ? 0 : colon + 2, at).strip();
            if (!message.isEmpty()) {
                out.violation(Pointers.append("", name), message);
            }
        }
    }

    /** pydantic v1: a line that is only an argument's name, then its message indented; the {@code (type=…)} tail dropped. */
    private static void nameLines(String t, Set<String> names, Extracted.Builder out) {
        int i = 0;
        while (i < t.length() && !out.full()) {
            int end = t.indexOf('\n', i);
            if (end < 0) {
                return;
            }
            String line = t.substring(i, end);
            int next = t.indexOf('\n', end + 1);
            String following = t.substring(end + 1, next < 0 ? t.length() : next);
            if (names.contains(line.strip()) && line.equals(line.strip()) && following.startsWith("  ")
                    && !following.isBlank()) {
                String message = following.strip();
                int type = message.lastIndexOf(" (type=");
                out.violation(Pointers.append("", line.strip()), type > 0 ? message.substring(0, type) : message);
            }
            i = end + 1;
        }
    }

    private static final String ON_INSTANCE = "\nOn instance[";
    private static final String FAILED = "Failed validating ";
    private static final String RAISED = "ValidationError: ";

    /**
     * jsonschema: {@code On instance['email']:} (subscripts {@code ['key']} and {@code [0]}) names
     * where the value failed; the message is the exception's line ({@code …ValidationError: 'x' is
     * not a 'email'}) or, printed alone, the text before {@code Failed validating}.
     */
    private static void jsonschemaInstance(String t, Set<String> names, Extracted.Builder out) {
        int on = t.lastIndexOf(ON_INSTANCE);
        int failed = t.lastIndexOf(FAILED, on < 0 ? 0 : on);
        if (on < 0 || failed < 0) {
            return;
        }
        java.util.List<String> segments = subscripts(t, on + ON_INSTANCE.length() - 1);
        if (segments.isEmpty() || !names.contains(segments.get(0))) {
            return;
        }
        Optional<String> pointer = Optional.of("");
        for (String segment : segments) {
            pointer = pointer.flatMap(p -> Pointers.append(p, segment));
        }
        int raised = t.lastIndexOf(RAISED, failed);
        int from = raised < 0 ? 0 : raised + RAISED.length();
        int lineEnd = t.indexOf('\n', from);
        String message = t.substring(from, lineEnd < 0 || lineEnd > failed ? failed : lineEnd).strip();
        if (!message.isEmpty() && message.indexOf('\n') < 0) {
            out.violation(pointer, message);
        }
    }

    /** The segments of {@code ['a'][0]:} from {@code at} (a {@code [}) to the colon; none when it is anything else. */
    private static java.util.List<String> subscripts(String t, int at) {
        java.util.List<String> segments = new java.util.ArrayList<>();
        int i = at;
        while (i < t.length() && t.charAt(i) == '[' && segments.size() < 32) {
            int close;
            String segment;
            char first = i + 1 < t.length() ? t.charAt(i + 1) : ']';
            if (first == '\'' || first == '"') {
                close = t.indexOf(first, i + 2);
                if (close < 0 || close + 1 >= t.length() || t.charAt(close + 1) != ']') {
                    return java.util.List.of();
                }
                segment = t.substring(i + 2, close);
                close++;
            } else {
                close = t.indexOf(']', i + 1);
                if (close < 0 || close - i > 20) {
                    return java.util.List.of();
                }
                segment = t.substring(i + 1, close);
                if (segment.isEmpty() || !segment.chars().allMatch(Character::isDigit)) {
                    return java.util.List.of();
                }
            }
            if (segment.length() > 256 || segment.indexOf('\\') >= 0 || segment.indexOf('\n') >= 0) {
                return java.util.List.of();
            }
            segments.add(segment);
            i = close + 1;
        }
        return i < t.length() && t.charAt(i) == ':' ? segments : java.util.List.of();
    }

    private static String firstLine(String t) {
        int nl = t.indexOf('\n');
        return nl < 0 ? t : t.substring(0, nl);
    }
}
