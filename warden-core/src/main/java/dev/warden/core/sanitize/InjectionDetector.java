package dev.warden.core.sanitize;

import com.google.re2j.Matcher;
import com.google.re2j.Pattern;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Prompt-injection phrasing in error text: instructions aimed at the model ("ignore previous
 * instructions", "you are now…"), fake role or chat-template markers, and imperatives to call tools
 * or send data somewhere. A fast pass finds trigger words; RE2/J (linear time) then runs on a
 * bounded window around each, windows merged so no character is matched twice.
 */
public final class InjectionDetector implements Detector {

    private static final Pattern PATTERN = Pattern.compile(String.join("|",
            "\\b(?:ignore|disregard|forget|override|bypass|skip)\\s+(?:all\\s+|any\\s+|the\\s+|your\\s+|every\\s+|of\\s+|these\\s+|those\\s+)*"
                    + "(?:previous|prior|above|earlier|preceding|system|original|existing|safety|developer)?\\s*"
                    + "(?:instructions?|prompts?|messages?|rules|directives|guidelines|guardrails|context|policies)",
            "\\byou\\s+are\\s+now\\s+(?:an?\\s+|the\\s+|in\\s+)?\\w+",
            "\\bfrom\\s+now\\s+on,?\\s+(?:you|the\\s+assistant)",
            "\\bnew\\s+(?:system\\s+)?(?:instructions?|rules|task)\\s*:",
            "\\b(?:reveal|print|show|output|repeat|leak)\\s+(?:your|the)\\s+(?:full\\s+|entire\\s+)?(?:system\\s+prompt|instructions|hidden\\s+prompt)",
            "\\bsystem\\s+prompt\\s*:",
            "<\\s*/?\\s*(?:system|instructions?|assistant|tool_call|function_call|im_start|im_end|admin)\\s*>",
            "<\\|(?:im_start|im_end|system|endoftext)\\|>",
            "\\[/?(?:inst|system|sys)\\]",
            "\\b(?:call|invoke|use|run|execute|trigger)\\s+(?:the\\s+)?[\\w.-]+\\s+tool\\b(?:\\s+(?:with|to|and))?",
            "\\b(?:call|invoke|execute)\\s+(?:the\\s+)?(?:tool|function)\\s+[\\w.-]+",
            "\\b(?:send|post|upload|forward|exfiltrate|email|transmit)\\s+(?:all\\s+|the\\s+|this\\s+|your\\s+|any\\s+|every\\s+)*"
                    + "(?:data|files?|contents?|conversation|chat|secrets?|credentials?|keys?|tokens?|history|messages?|env(?:ironment)?)"
                    + "\\s+(?:to|at)\\b",
            "\\bdo\\s+not\\s+(?:tell|inform|mention|reveal|show)\\s+(?:this\\s+(?:to\\s+)?)?(?:the\\s+)?user",
            "\\b(?:assistant|ai|model|claude|chatgpt|gpt|llm|agent)\\s*[:,]\\s*(?:you\\s+must|please\\s+now|now\\s+|ignore|stop)",
            "\\bimportant\\s*[:!]+\\s*(?:the\\s+)?(?:assistant|ai|model|agent|llm)\\s+(?:must|should|needs\\s+to)",
            "\\bjailbreak\\b",
            "\\bact\\s+as\\s+(?:an?\\s+)?(?:admin|administrator|root|system|developer|unrestricted|dan)\\b"));

    private static final int BEFORE = 8;
    private static final int AFTER = 200;
    private static final int RECENT = 8;

    private static final String[] DISMISS = {"ignore", "disregard", "forget", "override", "bypass", "skip"};
    private static final String[] RULES = {"instruction", "instructions", "prompt", "prompts", "rules", "message",
            "messages", "directives", "guidelines", "guardrails", "context", "policies"};
    private static final String[] DISCLOSE = {"reveal", "print", "show", "output", "repeat", "leak"};
    private static final String[] CALL = {"call", "invoke", "use", "run", "execute", "trigger"};
    private static final String[] SEND = {"send", "post", "upload", "forward", "exfiltrate", "email", "transmit"};
    private static final String[] LOOT = {"data", "file", "files", "content", "contents", "conversation", "chat",
            "secret", "secrets", "credential", "credentials", "key", "keys", "token", "tokens", "history", "message",
            "messages", "env", "environment"};
    private static final String[] ADDRESSEE = {"assistant", "ai", "model", "claude", "chatgpt", "gpt", "llm", "agent"};
    private static final String[] TELL = {"tell", "inform", "mention", "reveal", "show"};
    private static final String[] MARKUP = {"system", "instruction", "instructions", "assistant", "tool_call",
            "function_call", "im_start", "im_end", "admin", "|im_start|", "|im_end|", "|system|", "|endoftext|"};

    @Override
    public Category category() {
        return Category.INJECTION;
    }

    @Override
    public void scan(String text, List<Finding> out) {
        List<int[]> windows = windows(text);
        for (int[] window : windows) {
            String lower = text.substring(window[0], window[1]).toLowerCase(Locale.ROOT);
            Matcher m = PATTERN.matcher(lower);
            int from = 0;
            while (from <= lower.length() && m.find(from)) {
                if (m.end() == m.start()) {
                    from = m.end() + 1;
                    continue;
                }
                out.add(new Finding(Category.INJECTION, "prompt-injection", window[0] + m.start(), window[0] + m.end()));
                from = m.end();
            }
        }
    }

    /**
     * Windows to verify with the pattern. A word-level pre-filter looks for the word pairs every
     * pattern needs ("ignore … instructions", "you are now", "the … tool", "send … data … to",
     * "assistant:", chat-template markup), so ordinary prose costs one pass over its words and
     * the regular expression runs only where an attack is plausible.
     */
    private static List<int[]> windows(String text) {
        List<int[]> windows = new ArrayList<>();
        int n = text.length();
        int[] starts = new int[RECENT];
        int[] ends = new int[RECENT];
        int count = 0;
        int i = 0;
        while (i < n) {
            char c = text.charAt(i);
            if (c == '<' || c == '[') {
                int j = i + 1;
                if (j < n && text.charAt(j) == '/') {
                    j++;
                }
                while (j < n && text.charAt(j) == ' ') {
                    j++;
                }
                if (startsWithAny(text, j, MARKUP) || Text.matchesIgnoreCase(text, j, "inst]")
                        || Text.matchesIgnoreCase(text, j, "sys]")) {
                    add(windows, Math.max(0, i - BEFORE), Math.min(n, i + AFTER));
                }
                i++;
                continue;
            }
            if (!Text.isAlnum(c)) {
                i++;
                continue;
            }
            int w = i;
            while (i < n && (Text.isAlnum(text.charAt(i)) || text.charAt(i) == '_')) {
                i++;
            }
            int slot = count % RECENT;
            starts[slot] = w;
            ends[slot] = i;
            count++;
            int hit = trigger(text, starts, ends, count, i);
            if (hit >= 0) {
                add(windows, Math.max(0, hit - BEFORE), Math.min(n, hit + AFTER));
            }
        }
        return windows;
    }

    /** Words that can complete a phrase, by first letter and length: a cheap first test per word. */
    private static final boolean[][] COMPLETES = new boolean[26][24];

    static {
        List<String[]> groups = List.of(RULES, LOOT, TELL, ADDRESSEE, new String[] {"now", "on", "task", "tool",
                "function", "jailbreak", "exfiltrate", "as", "important", "prompt"});
        for (String[] group : groups) {
            for (String word : group) {
                COMPLETES[word.charAt(0) - 'a'][word.length()] = true;
            }
        }
    }

    /** The start of the phrase the newest word completes, or -1. */
    private static int trigger(String text, int[] starts, int[] ends, int count, int end) {
        int cur = (count - 1) % RECENT;
        int s = starts[cur];
        int e = ends[cur];
        char first = Text.lower(text.charAt(s));
        if (first < 'a' || first > 'z' || e - s >= 24 || !COMPLETES[first - 'a'][e - s]) {
            return -1;
        }
        if (is(text, s, e, "jailbreak") || is(text, s, e, "exfiltrate")) {
            return s;
        }
        if (isAny(text, s, e, RULES)) {
            int earlier = findBack(text, starts, ends, count, 5, DISMISS);
            if (earlier < 0) {
                earlier = findBack(text, starts, ends, count, 4, DISCLOSE);
            }
            if (earlier < 0 && (is(text, s, e, "instructions") || is(text, s, e, "instruction")
                    || is(text, s, e, "rules"))) {
                earlier = findBack(text, starts, ends, count, 2, new String[] {"new"});
            }
            if (earlier >= 0) {
                return earlier;
            }
            if (is(text, s, e, "prompt")) {
                int system = findBack(text, starts, ends, count, 1, new String[] {"system"});
                if (system >= 0) {
                    return system;
                }
            }
        }
        if (is(text, s, e, "now") && count >= 3 && is(text, starts[(count - 2) % RECENT], ends[(count - 2) % RECENT], "are")
                && is(text, starts[(count - 3) % RECENT], ends[(count - 3) % RECENT], "you")) {
            return starts[(count - 3) % RECENT];
        }
        if (is(text, s, e, "on") && count >= 3 && is(text, starts[(count - 2) % RECENT], ends[(count - 2) % RECENT], "now")
                && is(text, starts[(count - 3) % RECENT], ends[(count - 3) % RECENT], "from")) {
            return starts[(count - 3) % RECENT];
        }
        if (is(text, s, e, "task") || is(text, s, e, "tool") || is(text, s, e, "function")) {
            int earlier = findBack(text, starts, ends, count, 4, CALL);
            if (earlier >= 0) {
                return earlier;
            }
            int newTask = findBack(text, starts, ends, count, 2, new String[] {"new"});
            if (newTask >= 0 && is(text, s, e, "task")) {
                return newTask;
            }
        }
        if (isAny(text, s, e, CALL) || is(text, s, e, "call")) {
            // "call the tool X" is caught when "tool" arrives; nothing to do yet.
            return -1;
        }
        if (isAny(text, s, e, LOOT)) {
            int earlier = findBack(text, starts, ends, count, 6, SEND);
            if (earlier >= 0) {
                return earlier;
            }
        }
        if (isAny(text, s, e, TELL) && count >= 3 && is(text, starts[(count - 2) % RECENT], ends[(count - 2) % RECENT], "not")
                && is(text, starts[(count - 3) % RECENT], ends[(count - 3) % RECENT], "do")) {
            return starts[(count - 3) % RECENT];
        }
        if (is(text, s, e, "as") && count >= 2 && is(text, starts[(count - 2) % RECENT], ends[(count - 2) % RECENT], "act")) {
            return starts[(count - 2) % RECENT];
        }
        if ((isAny(text, s, e, ADDRESSEE) || is(text, s, e, "important")) && end < text.length()) {
            int j = end;
            while (j < text.length() && text.charAt(j) == ' ') {
                j++;
            }
            if (j < text.length() && (text.charAt(j) == ':' || text.charAt(j) == ',' || text.charAt(j) == '!')) {
                return s;
            }
        }
        return -1;
    }

    private static int findBack(String text, int[] starts, int[] ends, int count, int within, String[] words) {
        for (int k = 2; k <= within + 1 && k <= count && k <= RECENT; k++) {
            int slot = (count - k) % RECENT;
            if (isAny(text, starts[slot], ends[slot], words)) {
                return starts[slot];
            }
        }
        return -1;
    }

    private static boolean isAny(String text, int s, int e, String[] words) {
        for (String word : words) {
            if (is(text, s, e, word)) {
                return true;
            }
        }
        return false;
    }

    private static boolean is(String text, int s, int e, String word) {
        return e - s == word.length() && Text.matchesIgnoreCase(text, s, word);
    }

    private static boolean startsWithAny(String text, int at, String[] words) {
        for (String word : words) {
            if (Text.matchesIgnoreCase(text, at, word)) {
                return true;
            }
        }
        return false;
    }

    private static void add(List<int[]> windows, int start, int end) {
        if (!windows.isEmpty()) {
            int[] last = windows.get(windows.size() - 1);
            if (start <= last[1]) {
                last[1] = Math.max(last[1], end);
                return;
            }
        }
        windows.add(new int[] {start, end});
    }
}
