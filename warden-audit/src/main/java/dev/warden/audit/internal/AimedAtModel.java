package dev.warden.audit.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Whether a phrase the sanitizer's injection detector found in content a tool, resource or prompt
 * gave on success is aimed at the model, not at the document's human reader. The detector is
 * tuned for error text, where "you are now", "do not tell" or "system prompt" have no business; in
 * documentation they are ordinary ("You are now ready to deploy.", "Do not tell anyone your
 * password."). So in content a phrase counts only as one of:
 * <ul>
 * <li>an override: ignore / disregard / forget / override / bypass, within five words, previous,
 * prior, above, earlier, all, your, system or original instructions, prompt, rules, guidelines;</li>
 * <li>a disclosure of the model's own instructions: reveal / print / show / repeat / output / leak
 * your, the system, the hidden or the initial instructions or prompt;</li>
 * <li>a role hijack: "you are now", "act as", "from now on you": a role (an assistant, an AI, an
 * unrestricted …, admin or developer mode) within three words;</li>
 * <li>a fake chat marker ({@code <system>}, {@code </assistant>}, {@code <|im_start|>},
 * {@code [INST]}, {@code [SYSTEM INSTRUCTION: …}), or a turn addressed to the model ("Assistant:"
 * heading a line, "Note to the AI:");</li>
 * <li>exfiltration: send, forward, upload, post or email the conversation, the chat history,
 * secrets, credentials, passwords or the environment ({@code exfiltrate} alone); a call of a named
 * tool ("call the `send_email` tool"), hiding from the user ("do not tell the user"), and "new
 * instructions:".</li>
 * </ul>
 * Hand-written scanning over a bounded window (the span and {@value #AFTER} characters after it,
 * at most {@value #MAX_SPAN} characters of span): no regular expression over what a server sent.
 */
final class AimedAtModel {

    private static final int MAX_SPAN = 2_000;
    private static final int AFTER = 200;
    private static final int BEFORE = 40;

    private static final Set<String> DISMISS = Set.of("ignore", "disregard", "forget", "override", "bypass");
    private static final Set<String> DISCLOSE = Set.of("reveal", "print", "show", "output", "repeat", "leak");
    private static final Set<String> RULES = Set.of("instruction", "instructions", "prompt", "prompts", "rules",
            "directives", "guidelines", "guardrails", "policies");
    private static final Set<String> EARLIER = Set.of("previous", "prior", "above", "earlier", "preceding", "all",
            "your", "system", "original", "initial");
    private static final Set<String> OWN = Set.of("your", "system", "hidden", "initial", "original", "secret");
    private static final Set<String> SEND = Set.of("send", "post", "upload", "forward", "email", "transmit");
    private static final Set<String> SENSITIVE = Set.of("conversation", "chat", "history", "secret", "secrets",
            "credential", "credentials", "password", "passwords", "env", "environment");
    private static final Set<String> CALL = Set.of("call", "invoke", "use", "run", "execute", "trigger");
    private static final Set<String> ROLES = Set.of("assistant", "ai", "agent", "chatbot", "bot", "llm", "gpt", "dan",
            "unrestricted", "unfiltered", "uncensored", "jailbroken");
    private static final Set<String> MODES = Set.of("admin", "developer", "god", "dan", "jailbreak", "debug", "sudo",
            "root", "unrestricted", "maintenance");
    private static final Set<String> HIDE = Set.of("user", "users", "human", "operator");
    private static final Set<String> TELL = Set.of("tell", "inform", "mention", "reveal", "show");
    private static final Set<String> ADDRESSEES = Set.of("assistant", "ai", "llm", "model", "agent", "claude",
            "chatgpt", "gpt");
    private static final Set<String> MARKERS = Set.of("system", "assistant", "instruction", "instructions", "im_start",
            "im_end", "inst", "sys", "tool_call", "function_call", "endoftext", "admin");
    private static final Set<String> MARKER_SECOND = Set.of("instruction", "instructions", "prompt", "override",
            "message");

    private AimedAtModel() {
    }

    /** A word of the window: where it starts and ends in the text, and its lower-case form. */
    private record Word(int start, int end, String text) {
    }

    /** Whether the detector's span {@code [start, end)} of {@code text} holds a phrase aimed at the model. */
    static boolean confirms(String text, int start, int end) {
        int from = Math.max(0, Math.min(start, text.length()));
        int to = Math.min(text.length(), Math.min(Math.max(end, from), from + MAX_SPAN));
        for (int i = from; i < to; i++) {
            char c = text.charAt(i);
            if ((c == '<' || c == '[') && marker(text, i)) {
                return true;
            }
        }
        List<Word> words = words(text, Math.max(0, from - BEFORE), Math.min(text.length(), to + AFTER));
        for (int i = 0; i < words.size() && words.get(i).start() < to; i++) {
            if (words.get(i).start() >= from && phrase(text, words, i)) {
                return true;
            }
        }
        return false;
    }

    private static boolean phrase(String text, List<Word> words, int i) {
        String w = words.get(i).text();
        if (w.equals("exfiltrate")) {
            return true;
        }
        if (DISMISS.contains(w)) {
            return before(words, i, 5, RULES, EARLIER);
        }
        if (DISCLOSE.contains(w)) {
            return before(words, i, 5, RULES, OWN);
        }
        if (SEND.contains(w)) {
            return within(words, i + 1, 6, SENSITIVE);
        }
        if (w.equals("you") && is(words, i + 1, "are") && is(words, i + 2, "now")) {
            return role(words, i + 3);
        }
        if (w.equals("act") && is(words, i + 1, "as")) {
            return role(words, i + 2);
        }
        if (w.equals("from") && is(words, i + 1, "now") && is(words, i + 2, "on")) {
            return within(words, i + 3, 2, Set.of("you", "your"));
        }
        if (w.equals("do") && is(words, i + 1, "not") && i + 2 < words.size() && TELL.contains(words.get(i + 2).text())) {
            return within(words, i + 3, 3, HIDE);
        }
        if (w.equals("new") && i + 1 < words.size() && Set.of("instructions", "instruction", "task", "rules")
                .contains(words.get(i + 1).text())) {
            return next(text, words.get(i + 1).end()) == ':';
        }
        if (CALL.contains(w)) {
            return namedTool(text, words, i);
        }
        if (ADDRESSEES.contains(w) && next(text, words.get(i).end()) == ':') {
            return lineStart(text, words.get(i).start()) && Set.of("assistant", "ai", "llm").contains(w)
                    || is(words, i - 1, "to") || (is(words, i - 1, "the") && is(words, i - 2, "to"));
        }
        return false;
    }

    /** A word of {@code what} within {@code n} words after {@code i}, with a word of {@code qualifiers} between. */
    private static boolean before(List<Word> words, int i, int n, Set<String> what, Set<String> qualifiers) {
        boolean qualified = false;
        for (int k = i + 1; k < words.size() && k <= i + n; k++) {
            String w = words.get(k).text();
            if (what.contains(w) && qualified) {
                return true;
            }
            qualified |= qualifiers.contains(w);
        }
        return false;
    }

    private static boolean within(List<Word> words, int from, int n, Set<String> what) {
        for (int k = from; k < words.size() && k < from + n; k++) {
            if (what.contains(words.get(k).text())) {
                return true;
            }
        }
        return false;
    }

    /** A role within three words: an assistant, an unrestricted …, or a mode such as admin mode. */
    private static boolean role(List<Word> words, int from) {
        for (int k = from; k < words.size() && k < from + 3; k++) {
            String w = words.get(k).text();
            if (ROLES.contains(w) || w.equals("mode") && k > 0 && MODES.contains(words.get(k - 1).text())) {
                return true;
            }
        }
        return false;
    }

    /** "call the `send_email` tool": a name (with an underscore or in quotes) before "tool" within four words. */
    private static boolean namedTool(String text, List<Word> words, int i) {
        for (int k = i + 1; k < words.size() && k <= i + 4; k++) {
            if (words.get(k).text().equals("tool")) {
                for (int c = words.get(i).end(); c < words.get(k).start(); c++) {
                    char ch = text.charAt(c);
                    if (ch == '_' || ch == '`' || ch == '"' || ch == '\'') {
                        return true;
                    }
                }
                return false;
            }
        }
        return false;
    }

    private static boolean is(List<Word> words, int k, String word) {
        return k >= 0 && k < words.size() && words.get(k).text().equals(word);
    }

    /** The first character at or after {@code at} that is not a space, or 0. */
    private static char next(String text, int at) {
        int j = at;
        while (j < text.length() && text.charAt(j) == ' ') {
            j++;
        }
        return j < text.length() ? text.charAt(j) : 0;
    }

    private static boolean lineStart(String text, int at) {
        int j = at - 1;
        while (j >= 0 && (text.charAt(j) == ' ' || text.charAt(j) == '\t' || text.charAt(j) == '*'
                || text.charAt(j) == '#' || text.charAt(j) == '>')) {
            j--;
        }
        return j < 0 || text.charAt(j) == '\n' || text.charAt(j) == '\r';
    }

    /**
     * {@code <system>}, {@code </assistant>}, {@code <|im_start|>}, {@code [INST]}, {@code [SYSTEM
     * INSTRUCTION: …}: a chat marker word right after the bracket, closed at once, or (in square
     * brackets) followed by a colon or by a second word such as "instruction".
     */
    private static boolean marker(String text, int at) {
        boolean square = text.charAt(at) == '[';
        int j = at + 1;
        while (j < text.length() && (text.charAt(j) == '/' || text.charAt(j) == '|' || text.charAt(j) == ' ')) {
            j++;
        }
        int e = j;
        while (e < text.length() && e - j < 16 && (Character.isLetterOrDigit(text.charAt(e)) || text.charAt(e) == '_')) {
            e++;
        }
        if (e == j || !MARKERS.contains(text.substring(j, e).toLowerCase(Locale.ROOT))) {
            return false;
        }
        char after = next(text, e);
        if (after == '>' || after == '|' || after == ']' || square && after == ':') {
            return true;
        }
        if (!square) {
            return false;
        }
        int s = e;
        while (s < text.length() && text.charAt(s) == ' ') {
            s++;
        }
        int t = s;
        while (t < text.length() && t - s < 16 && Character.isLetter(text.charAt(t))) {
            t++;
        }
        return t > s && MARKER_SECOND.contains(text.substring(s, t).toLowerCase(Locale.ROOT));
    }

    /** The words of {@code text[from, to)}: runs of letters, digits and underscores, lower-cased. */
    private static List<Word> words(String text, int from, int to) {
        List<Word> words = new ArrayList<>();
        int i = from;
        while (i < to) {
            while (i < to && !wordChar(text.charAt(i))) {
                i++;
            }
            int s = i;
            while (i < to && wordChar(text.charAt(i))) {
                i++;
            }
            if (i > s) {
                words.add(new Word(s, i, text.substring(s, i).toLowerCase(Locale.ROOT)));
            }
        }
        return words;
    }

    private static boolean wordChar(char c) {
        return Character.isLetterOrDigit(c) || c == '_';
    }
}
