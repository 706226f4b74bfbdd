package dev.warden.core.shape;

import dev.warden.core.error.ErrorCode;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Violations read from a validation failure written as prose, when it names one of the arguments the
 * caller sent: the field is known only because the caller used that name, so nothing the server
 * alone knows becomes a pointer. Three forms, seen in real libraries:
 *
 * <ul>
 *   <li>the name quoted at the start: Joi's {@code "email" must be a valid email};</li>
 *   <li>{@code … MESSAGE at NAME} at the end: the TypeScript SDK's {@code Invalid arguments for tool
 *       x: Invalid email at email};</li>
 *   <li>a line that is only the name, then an indented message: pydantic v1's {@code email\n  string
 *       does not match regex …}.</li>
 * </ul>
 *
 * <p>Only the first {@value #MAX_SCAN_CHARS} characters are read, in one pass per form, so the cost
 * is linear and bounded. Messages are the upstream's words: sanitize them before use.
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

    /** {@code …: Invalid email at email}: the first line ends with " at NAME"; the message is what follows the last ": ". */
    private static void atTheEnd(String t, Set<String> names, Extracted.Builder out) {
        String line = firstLine(t).strip();
        int at = line.lastIndexOf(" at ");
        if (at < 0) {
            return;
        }
        String name = line.substring(at + 4).strip();
        if (!names.contains(name)) {
            return;
        }
        int colon = line.lastIndexOf(": ", at);
        String message = line.substring(colon < 0 ? 0 : colon + 2, at).strip();
        if (!message.isEmpty()) {
            out.violation(Pointers.append("", name), message);
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

    private static String firstLine(String t) {
        int nl = t.indexOf('\n');
        return nl < 0 ? t : t.substring(0, nl);
    }
}
