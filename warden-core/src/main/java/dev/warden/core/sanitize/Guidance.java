package dev.warden.core.sanitize;

import dev.warden.core.sanitize.detection.Category;
import dev.warden.core.sanitize.detection.Finding;
import dev.warden.core.sanitize.injection.InjectionDetector;
import dev.warden.core.sanitize.scan.Sentences;
import dev.warden.core.sanitize.scan.Text;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Guidance is not injection: a failure that points the model at one of the server's own tools
 * ({@link InjectionDetector#TOOL_CALL}, a tool {@link CallerInput#isServersTool}) or asks it to ask
 * the user for nothing secret ({@link InjectionDetector#ADDRESSED}) says what to do next, so such
 * a phrase is no finding. Any other phrase in the same sentence is judged on its own. The rule and
 * its examples: docs/reference/sanitizer.md ("Guidance is not injection").
 */
final class Guidance {

    private static final String[] ASK_USER = {"ask the user", "ask user", "asking the user", "ask your user"};
    private static final String[] SECRET_WORDS = {"password", "passphrase", "credential", "secret", "token",
            "api key", "private key", "ssh key", "otp", "one-time", "pin code", "social security", "card number",
            "cvv"};

    /** How far either side of a phrase its sentence is read (bounds the work per phrase). */
    private static final int MAX_SENTENCE = 512;

    private Guidance() {
    }

    static List<Finding> without(String text, List<Finding> findings, CallerInput caller) {
        List<Finding> kept = null;
        for (int i = 0; i < findings.size(); i++) {
            Finding f = findings.get(i);
            if (f.category() == Category.INJECTION && guidance(text, f, caller)) {
                if (kept == null) {
                    kept = new ArrayList<>(findings.subList(0, i));
                }
            } else if (kept != null) {
                kept.add(f);
            }
        }
        return kept == null ? findings : kept;
    }

    private static boolean guidance(String text, Finding f, CallerInput caller) {
        return switch (f.kind()) {
            case InjectionDetector.TOOL_CALL -> namesServersTool(text, f.start(), f.end(), caller);
            case InjectionDetector.ADDRESSED -> asksTheUser(text, f);
            default -> false;
        };
    }

    /** Whether a name between the imperative and "tool" ("call the `run-query` tool") is one the server listed. */
    private static boolean namesServersTool(String text, int start, int end, CallerInput caller) {
        int i = start;
        while (i < end) {
            while (i < end && !nameChar(text.charAt(i))) {
                i++;
            }
            int s = i;
            while (i < end && nameChar(text.charAt(i))) {
                i++;
            }
            if (i > s && caller.isServersTool(text.substring(s, i))) {
                return true;
            }
        }
        return false;
    }

    private static boolean asksTheUser(String text, Finding f) {
        int from = Sentences.start(text, f.start(), f.start() - MAX_SENTENCE);
        int to = Sentences.end(text, f.end(), f.end() + MAX_SENTENCE);
        String sentence = text.substring(from, to).toLowerCase(Locale.ROOT);
        if (!containsAny(sentence, ASK_USER)) {
            return false;
        }
        return !containsAny(sentence, SECRET_WORDS);
    }

    private static boolean containsAny(String lower, String[] phrases) {
        for (String p : phrases) {
            if (lower.contains(p)) {
                return true;
            }
        }
        return false;
    }

    private static boolean nameChar(char c) {
        return Text.isWordChar(c) || c == '-' || c == '.' || c == ':' || c == '/';
    }
}
