package dev.warden.audit.internal;

import dev.warden.audit.canary.Canaries;
import dev.warden.audit.canary.Canary;
import java.util.List;
import java.util.Optional;

/**
 * The values models send when a prompt injection or a confused plan drives them, each carrying the
 * audit's marker so that one coming back verbatim is recognised as reflected. The traversal, SQL
 * and shell values are canaries too: what the answer shows is judged (see {@link Canary}).
 */
public final class Hostile {

    /** One hostile value, what it is in words for the report, and what its answer can prove. */
    public record Value(String what, String text, Optional<Canary> canary) {
        public Value(String what, String text) {
            this(what, text, Optional.empty());
        }

        static Value of(Canaries.Planted planted) {
            return new Value(planted.what(), planted.text(), Optional.of(planted.canary()));
        }
    }

    public static final int NESTING_DEPTH = 128;

    private Hostile() {
    }

    /** The values, with canaries that name no folder the tool serves. */
    public static List<Value> strings(String marker) {
        return strings(marker, new Canaries(marker, token -> "http://127.0.0.1:0/" + token), List.of());
    }

    /** The values, with shell tokens drawn from {@code canaries} and {@code bases} the folders the tool names. */
    public static List<Value> strings(String marker, Canaries canaries, List<String> bases) {
        return List.of(
                Value.of(Canaries.deepTraversal(marker, bases)),
                Value.of(Canaries.quoteAndOr(marker)),
                Value.of(canaries.semicolon(marker)),
                new Value("format string", "%s%n{0}${7*7} " + marker),
                new Value("control characters", marker + "\u0000\u0007\u001b[31m\r\n\u0085"),
                new Value("bidirectional override", marker + "\u202Etxt.exe\u2066\u200B"));
    }
}
