package dev.warden.audit.definitions;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The phrasing of tool-poisoning attacks, as Invariant Labs' write-up ("MCP Security Notification:
 * Tool Poisoning Attacks", 2025) and the ones after it show them: a description that tells the
 * model to read a secret file "before using this tool", to keep that from the user, to pass what it
 * read as a parameter, to send every email to another address, hidden in {@code <IMPORTANT>} tags
 * or below a screenful of blank lines.
 *
 * <p>Hand-written and linear: the text is split into lower-case words once; a phrase is a few word
 * sets, each to be found within a few words of the last, so each word starts at most a bounded
 * amount of look-ahead. Markers and secret paths are found with {@code indexOf}. No regular expression.
 */
final class PoisoningPhrases {

    /** A phrase: word sets in order, each within its {@code gaps[i - 1]} words after the previous one's match. */
    private record Phrase(String reason, int[] gaps, List<Set<String>> steps) {
        Phrase(String reason, int gap, List<Set<String>> steps) {
            this(reason, java.util.Collections.nCopies(steps.size(), gap).stream().mapToInt(Integer::intValue)
                    .toArray(), steps);
        }
    }

    private static final Set<String> TELL = Set.of("tell", "mention", "inform", "reveal", "notify", "alert", "show",
            "disclose", "explain");
    private static final Set<String> TELLING = Set.of("telling", "informing", "notifying", "alerting", "asking",
            "mentioning", "showing", "letting");
    private static final Set<String> USER = Set.of("user", "users", "human", "humans");
    private static final Set<String> CALL = Set.of("call", "invoke", "use", "run", "execute", "send", "read");
    private static final Set<String> USING = Set.of("using", "calling", "invoking", "running", "executing", "use",
            "call");
    private static final Set<String> TOOL = Set.of("tool", "tools", "function", "functions");
    private static final Set<String> FETCH = Set.of("read", "send", "pass", "include", "upload", "forward", "email",
            "attach", "append", "cat", "open");
    private static final Set<String> SEND = Set.of("send", "post", "upload", "forward", "exfiltrate", "transmit",
            "email", "mail", "leak", "copy");
    /**
     * Words after which "email" is a noun ("checks an email and password", "the user's email or
     * phone"), not the verb of "email the history to …": such an "email" is no SEND word.
     */
    private static final Set<String> NOUN_BEFORE = Set.of("a", "an", "the", "your", "their", "his", "her", "its",
            "our", "my", "valid", "user", "users", "same", "each", "every", "any", "new", "primary", "work");
    private static final Set<String> LOOT = Set.of("conversation", "history", "credentials", "credential", "secrets",
            "password", "passwords", "tokens", "apikey", "keys", "env", "cookies", "chat", "messages");
    private static final Set<String> DISMISS = Set.of("ignore", "disregard", "forget", "override");
    private static final Set<String> EARLIER = Set.of("previous", "prior", "above", "earlier", "all", "other",
            "original", "system");
    private static final Set<String> RULES = Set.of("instructions", "instruction", "rules", "tools", "prompt",
            "directions", "guidelines");

    private static final List<Phrase> PHRASES = List.of(
            new Phrase("conceals its actions from the user", new int[] {2, 12},
                    List.of(Set.of("dont", "never", "not"), TELL, USER)),
            new Phrase("conceals its actions from the user", 3, List.of(Set.of("without"), TELLING, USER)),
            new Phrase("conceals its actions from the user", 4, List.of(Set.of("hide", "conceal"), Set.of("from"), USER)),
            new Phrase("tells the model to do something before using a tool", 3,
                    List.of(Set.of("before"), USING, TOOL, FETCH)),
            new Phrase("tells the model to make another call", 2,
                    List.of(Set.of("you"), Set.of("must", "should", "need"), Set.of("also"), CALL)),
            new Phrase("tells the model to make another call", 3,
                    List.of(Set.of("must", "always"), Set.of("call", "invoke"), Set.of("this", "the", "tool", "first"))),
            new Phrase("redirects what another tool sends", 2,
                    List.of(Set.of("all"), Set.of("emails", "messages", "mails", "payments", "transfers"), Set.of("to"))),
            new Phrase("redirects what another tool sends", 3,
                    List.of(Set.of("change", "replace", "redirect"), Set.of("recipient", "recipients", "destination"))),
            new Phrase("asks the model to send data elsewhere", 6, List.of(SEND, LOOT)),
            new Phrase("tells the model to ignore its instructions", 3, List.of(DISMISS, EARLIER, RULES)));

    /** Markup that sets text apart for the model, and HTML comments a rendered description hides. */
    private static final List<String> MARKERS = List.of("<important>", "</important>", "<system>", "<instructions>",
            "<secret>", "<hidden>", "[system]", "<!--", "<|im_start|>");

    /** Files an attack reads: keys, cloud credentials, the MCP client's own configuration. */
    private static final List<String> SECRET_PATHS = List.of("~/.ssh", ".ssh/", "id_rsa", "id_ed25519", "~/.aws",
            ".aws/credentials", "mcp.json", "~/.cursor", ".netrc", ".npmrc", ".pgpass", "/etc/passwd", "/etc/shadow",
            ".kube/config", ".gnupg", ".git-credentials", "claude_desktop_config");

    /** Consecutive blank characters that push what follows out of a reviewer's view. */
    static final int HIDING_WHITESPACE = 120;

    private PoisoningPhrases() {
    }

    /** Why {@code text} reads as tool poisoning, in the auditor's words; empty when it does not. */
    static Optional<String> reason(String text) {
        String lower = text.toLowerCase(Locale.ROOT);
        for (String marker : MARKERS) {
            if (lower.contains(marker)) {
                return Optional.of("sets text apart for the model with " + markerName(marker));
            }
        }
        List<String> words = nounsMarked(words(lower));
        for (String path : SECRET_PATHS) {
            if (lower.contains(path) && words.stream().anyMatch(FETCH::contains)) {
                return Optional.of("asks the model to read or send a secret file");
            }
        }
        for (Phrase p : PHRASES) {
            if (matches(words, p)) {
                return Optional.of(p.reason());
            }
        }
        if (blankRun(text) >= HIDING_WHITESPACE) {
            return Optional.of("hides text below a long run of blank characters");
        }
        return Optional.empty();
    }

    /** The words, with an "email" or "mail" that a determiner makes a noun replaced by a word no phrase uses. */
    private static List<String> nounsMarked(List<String> words) {
        List<String> out = new ArrayList<>(words);
        for (int i = 1; i < out.size(); i++) {
            if ((out.get(i).equals("email") || out.get(i).equals("mail")) && NOUN_BEFORE.contains(words.get(i - 1))) {
                out.set(i, "email-noun");
            }
        }
        return out;
    }

    private static String markerName(String marker) {
        return marker.equals("<!--") ? "an HTML comment" : "a " + marker.replace("/", "") + " block";
    }

    /** Lower-case words: letters and digits; an apostrophe inside a word is dropped ("don't" is "dont"). */
    static List<String> words(String lower) {
        List<String> words = new ArrayList<>();
        StringBuilder w = new StringBuilder();
        for (int i = 0; i < lower.length(); i++) {
            char c = lower.charAt(i);
            if (Character.isLetterOrDigit(c)) {
                w.append(c);
            } else if ((c == '\'' || c == '\u2019') && w.length() > 0) {
                continue;
            } else if (w.length() > 0) {
                words.add(w.toString());
                w.setLength(0);
            }
        }
        if (w.length() > 0) {
            words.add(w.toString());
        }
        return words;
    }

    /** Each start word looks ahead at most the sum of the gaps: linear in the text. */
    private static boolean matches(List<String> words, Phrase p) {
        Set<String> first = p.steps().get(0);
        for (int i = 0; i < words.size(); i++) {
            if (!first.contains(words.get(i))) {
                continue;
            }
            int at = i;
            boolean all = true;
            for (int s = 1; s < p.steps().size() && all; s++) {
                Set<String> step = p.steps().get(s);
                int found = -1;
                for (int j = at + 1; j <= Math.min(words.size() - 1, at + p.gaps()[s - 1]); j++) {
                    if (step.contains(words.get(j))) {
                        found = j;
                        break;
                    }
                }
                all = found >= 0;
                at = found;
            }
            if (all) {
                return true;
            }
        }
        return false;
    }

    private static int blankRun(String text) {
        int longest = 0;
        int run = 0;
        for (int i = 0; i < text.length(); i++) {
            if (Character.isWhitespace(text.charAt(i)) || Character.isSpaceChar(text.charAt(i))) {
                longest = Math.max(longest, ++run);
            } else {
                run = 0;
            }
        }
        return longest;
    }
}
