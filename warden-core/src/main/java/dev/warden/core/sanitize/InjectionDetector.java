package dev.warden.core.sanitize;

import java.util.ArrayList;
import java.util.List;

/**
 * Prompt-injection phrasing in error text: instructions aimed at the model ("ignore previous
 * instructions", "you are now…"), fake role or chat-template markers, and imperatives to call tools
 * or send data somewhere. One pass over the words: each word is classified once through a small
 * hash table, and a phrase is recognised when a word completes a pattern with the few words before
 * it ("ignore … instructions" within five words, "you are now", "send … credentials"). Linear,
 * with no regular expression at all (RE2/J was tried first and ran at 2 MB/s on hostile text).
 */
public final class InjectionDetector implements Detector {

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
        for (int[] span : spans(text)) {
            out.add(new Finding(Category.INJECTION, "prompt-injection", span[0], span[1]));
        }
    }

    // Word classes, as bits, so each word is looked up once and phrases are checked with masks.
    private static final int W_DISMISS = 1;
    private static final int W_RULES = 1 << 1;
    private static final int W_DISCLOSE = 1 << 2;
    private static final int W_CALL = 1 << 3;
    private static final int W_SEND = 1 << 4;
    private static final int W_LOOT = 1 << 5;
    private static final int W_ADDRESSEE = 1 << 6;
    private static final int W_TELL = 1 << 7;
    private static final int W_NEW = 1 << 8;
    private static final int W_SYSTEM = 1 << 9;
    private static final int W_PROMPT = 1 << 10;
    private static final int W_YOU = 1 << 11;
    private static final int W_ARE = 1 << 12;
    private static final int W_NOW = 1 << 13;
    private static final int W_FROM = 1 << 14;
    private static final int W_ON = 1 << 15;
    private static final int W_TASK = 1 << 16;
    private static final int W_TOOL = 1 << 17;
    private static final int W_DO = 1 << 18;
    private static final int W_NOT = 1 << 19;
    private static final int W_ACT = 1 << 20;
    private static final int W_AS = 1 << 21;
    private static final int W_IMPORTANT = 1 << 22;
    private static final int W_ALARM = 1 << 23;
    private static final int W_NEW_WHAT = 1 << 24;

    private static final int TABLE = 512;
    private static final String[] WORDS = new String[TABLE];
    private static final int[] MASKS = new int[TABLE];

    static {
        java.util.Map<String, Integer> masks = new java.util.HashMap<>();
        java.util.function.BiConsumer<String[], Integer> add = (words, bit) -> {
            for (String w : words) {
                masks.merge(w, bit, (a, b) -> a | b);
            }
        };
        add.accept(DISMISS, W_DISMISS);
        add.accept(RULES, W_RULES);
        add.accept(DISCLOSE, W_DISCLOSE);
        add.accept(CALL, W_CALL);
        add.accept(SEND, W_SEND);
        add.accept(LOOT, W_LOOT);
        add.accept(ADDRESSEE, W_ADDRESSEE);
        add.accept(TELL, W_TELL);
        add.accept(new String[] {"new"}, W_NEW);
        add.accept(new String[] {"system"}, W_SYSTEM);
        add.accept(new String[] {"prompt"}, W_PROMPT);
        add.accept(new String[] {"you"}, W_YOU);
        add.accept(new String[] {"are"}, W_ARE);
        add.accept(new String[] {"now"}, W_NOW);
        add.accept(new String[] {"from"}, W_FROM);
        add.accept(new String[] {"on"}, W_ON);
        add.accept(new String[] {"task"}, W_TASK | W_NEW_WHAT);
        add.accept(new String[] {"tool", "function"}, W_TOOL);
        add.accept(new String[] {"do"}, W_DO);
        add.accept(new String[] {"not"}, W_NOT);
        add.accept(new String[] {"act"}, W_ACT);
        add.accept(new String[] {"as"}, W_AS);
        add.accept(new String[] {"important"}, W_IMPORTANT);
        add.accept(new String[] {"jailbreak", "exfiltrate"}, W_ALARM);
        add.accept(new String[] {"instruction", "instructions", "rules"}, W_NEW_WHAT);
        masks.forEach((word, mask) -> {
            int slot = hash(word, 0, word.length()) & (TABLE - 1);
            while (WORDS[slot] != null) {
                slot = (slot + 1) & (TABLE - 1);
            }
            WORDS[slot] = word;
            MASKS[slot] = mask;
        });
    }

    /** FNV-1a over the lower-cased ASCII letters, so lookups need no lower-cased copy. */
    private static final int HASH_SEED = 0x811C9DC5;

    private static int hash(String text, int s, int e) {
        int h = HASH_SEED;
        for (int i = s; i < e; i++) {
            h = hashStep(h, text.charAt(i));
        }
        return finish(h);
    }

    private static int hashStep(int h, char c) {
        return (h ^ Text.lower(c)) * 0x01000193;
    }

    private static int finish(int h) {
        return h ^ (h >>> 16);
    }

    private static int maskOf(String text, int s, int e, int hash) {
        int len = e - s;
        if (len < 2 || len > 12) {
            return 0;
        }
        int slot = hash & (TABLE - 1);
        while (WORDS[slot] != null) {
            String word = WORDS[slot];
            if (word.length() == len && Text.matchesIgnoreCase(text, s, word)) {
                return MASKS[slot];
            }
            slot = (slot + 1) & (TABLE - 1);
        }
        return 0;
    }

    /**
     * Windows to verify with the pattern. A word-level pre-filter looks for the word pairs every
     * pattern needs ("ignore … instructions", "you are now", "the … tool", "send … data … to",
     * "assistant:", chat-template markup), so ordinary prose costs one pass over its words and
     * the regular expression runs only where an attack is plausible.
     */
    private static List<int[]> spans(String text) {
        List<int[]> windows = new ArrayList<>();
        int n = text.length();
        int[] starts = new int[RECENT];
        int[] masks = new int[RECENT];
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
                int markup = markupEnd(text, j);
                if (markup > 0) {
                    add(windows, i, markup);
                }
                i++;
                continue;
            }
            if (!Text.isAlnum(c)) {
                i++;
                continue;
            }
            int w = i;
            int h = HASH_SEED;
            while (i < n) {
                char ch = text.charAt(i);
                if (!(Text.isAlnum(ch) || ch == '_')) {
                    break;
                }
                h = hashStep(h, ch);
                i++;
            }
            int mask = maskOf(text, w, i, finish(h));
            int slot = count % RECENT;
            starts[slot] = w;
            masks[slot] = mask;
            count++;
            if (mask != 0) {
                int hit = trigger(text, starts, masks, count, i);
                if (hit >= 0) {
                    add(windows, hit, i);
                }
            }
        }
        return windows;
    }

    /** The start of the phrase the newest word completes, or -1. */
    private static int trigger(String text, int[] starts, int[] masks, int count, int end) {
        int mask = masks[(count - 1) % RECENT];
        int s = starts[(count - 1) % RECENT];
        if ((mask & W_ALARM) != 0) {
            return s;
        }
        if ((mask & W_RULES) != 0) {
            int earlier = back(starts, masks, count, 5, W_DISMISS | W_DISCLOSE);
            if (earlier >= 0) {
                return earlier;
            }
        }
        if ((mask & W_NEW_WHAT) != 0) {
            int earlier = back(starts, masks, count, 2, W_NEW);
            if (earlier >= 0) {
                return earlier;
            }
        }
        if ((mask & W_PROMPT) != 0 && previous(masks, count, 1, W_SYSTEM)) {
            return starts[(count - 2) % RECENT];
        }
        if ((mask & W_NOW) != 0 && previous(masks, count, 1, W_ARE) && previous(masks, count, 2, W_YOU)) {
            return starts[(count - 3) % RECENT];
        }
        if ((mask & W_ON) != 0 && previous(masks, count, 1, W_NOW) && previous(masks, count, 2, W_FROM)) {
            return starts[(count - 3) % RECENT];
        }
        if ((mask & (W_TOOL | W_TASK)) != 0) {
            int earlier = back(starts, masks, count, 4, W_CALL);
            if (earlier >= 0) {
                return earlier;
            }
        }
        if ((mask & W_LOOT) != 0) {
            int earlier = back(starts, masks, count, 6, W_SEND);
            if (earlier >= 0) {
                return earlier;
            }
        }
        if ((mask & W_TELL) != 0 && previous(masks, count, 1, W_NOT) && previous(masks, count, 2, W_DO)) {
            return starts[(count - 3) % RECENT];
        }
        if ((mask & W_AS) != 0 && previous(masks, count, 1, W_ACT)) {
            return starts[(count - 2) % RECENT];
        }
        if ((mask & (W_ADDRESSEE | W_IMPORTANT)) != 0) {
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

    /** Whether the word {@code back} places before the newest one has one of the bits. */
    private static boolean previous(int[] masks, int count, int back, int bits) {
        return count > back && (masks[(count - 1 - back) % RECENT] & bits) != 0;
    }

    private static int back(int[] starts, int[] masks, int count, int within, int bits) {
        for (int k = 1; k <= within && k < count && k < RECENT; k++) {
            if ((masks[(count - 1 - k) % RECENT] & bits) != 0) {
                return starts[(count - 1 - k) % RECENT];
            }
        }
        return -1;
    }

    /** {@code <system>}, {@code </instructions>}, {@code <|im_start|>}, {@code [INST]}: the end of the marker, or -1. */
    private static int markupEnd(String text, int at) {
        for (String word : MARKUP) {
            if (Text.matchesIgnoreCase(text, at, word)) {
                int j = at + word.length();
                while (j < text.length() && text.charAt(j) == ' ') {
                    j++;
                }
                if (j < text.length() && (text.charAt(j) == '>' || text.charAt(j) == ']')) {
                    return j + 1;
                }
                if (word.startsWith("|")) {
                    return j < text.length() && text.charAt(j) == '>' ? j + 1 : -1;
                }
            }
        }
        for (String word : new String[] {"inst]", "sys]"}) {
            if (Text.matchesIgnoreCase(text, at, word)) {
                return at + word.length();
            }
        }
        return -1;
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
