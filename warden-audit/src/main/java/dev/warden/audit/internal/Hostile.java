package dev.warden.audit.internal;

import java.util.List;

/**
 * The values models send when a prompt injection or a confused plan drives them, each carrying the
 * audit's marker so that one coming back verbatim is recognised as reflected.
 */
public final class Hostile {

    /** One hostile value and what it is, in words for the report. */
    public record Value(String what, String text) {
    }

    public static final int NESTING_DEPTH = 128;

    private Hostile() {
    }

    public static List<Value> strings(String marker) {
        return List.of(
                new Value("path traversal", marker + "/../../../../etc/passwd"),
                new Value("SQL metacharacters", "' OR 1=1 -- " + marker),
                new Value("shell metacharacters", "; id # " + marker),
                new Value("format string", "%s%n{0}${7*7} " + marker),
                new Value("control characters", marker + "\u0000\u0007\u001b[31m\r\n\u0085"),
                new Value("bidirectional override", marker + "\u202Etxt.exe\u2066\u200B"));
    }
}
