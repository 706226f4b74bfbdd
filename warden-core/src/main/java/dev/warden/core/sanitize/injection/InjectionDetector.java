package dev.warden.core.sanitize.injection;

import dev.warden.core.sanitize.detection.Category;
import dev.warden.core.sanitize.detection.Finding;
import dev.warden.core.sanitize.path.JsonPointers;
import dev.warden.core.sanitize.scan.Text;
import dev.warden.core.sanitize.scan.WordScanner;
import dev.warden.core.sanitize.scan.Words;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.IntPredicate;

/**
 * Prompt-injection phrasing in error text: instructions aimed at the model ("ignore previous
 * instructions", "you are now…"), fake role or chat-template markers, and imperatives to call tools
 * or send data somewhere. One pass over the words: each word is classified once through a small
 * hash table, and a phrase is recognised when a word completes a pattern with the few words before
 * it ("ignore … instructions" within five words, "you are now", "send … credentials"). Linear,
 * with no regular expression at all (RE2/J was tried first and ran at 2 MB/s on hostile text).
 */
public final class InjectionDetector implements WordScanner {

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

    /** The kind of a phrase that tells the model to call a tool ("call the … tool"): guidance if the tool is the server's own. */
    public static final String TOOL_CALL = "tool-call";
    /** The kind of a phrase that addresses the model ("Note to LLM:", "IMPORTANT:"): guidance if it only asks to ask the user. */
    public static final String ADDRESSED = "addressed";
    static final String GENERIC = "prompt-injection";
    private static final String[] KINDS = {GENERIC, TOOL_CALL, ADDRESSED};

    @Override
    public Map<String, Integer> wordClasses() {
        return WORD_CLASSES;
    }

    @Override
    public void scan(Words words, List<Finding> out) {
        for (int[] span : spans(words)) {
            out.add(new Finding(Category.INJECTION, KINDS[span[2]], span[0], span[1]));
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

    /** The words this detector classifies, with their class bits (all below {@link Words#DATABASE_BITS}). */
    public static final Map<String, Integer> WORD_CLASSES;

    static {
        Map<String, Integer> masks = new HashMap<>();
        BiConsumer<String[], Integer> add = (words, bit) -> {
            for (String w : words) {
                masks.merge(w, bit, (x, y) -> x | y);
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
        WORD_CLASSES = Map.copyOf(masks);
    }

    /** Every class bit this detector uses. */
    static final int BITS = (1 << 25) - 1;

    /**
     * Windows to verify with the pattern. A word-level pre-filter looks for the word pairs every
     * pattern needs ("ignore … instructions", "you are now", "the … tool", "send … data … to",
     * "assistant:", chat-template markup), so ordinary prose costs one pass over its words and
     * the regular expression runs only where an attack is plausible.
     */
    private static List<int[]> spans(Words words) {
        String text = words.text();
        List<int[]> windows = new ArrayList<>();
        Recent recent = new Recent();
        // Markup opens with '<' or '[', never inside a word: found with indexOf between the words.
        int nextAngle = text.indexOf('<');
        int nextBracket = text.indexOf('[');
        Words.Classified classified = words.classified();
        for (int k = 0; k < classified.size(); k++) {
            int mask = classified.mask(k) & BITS;
            if (mask == 0) {
                continue;
            }
            int w = classified.word(k);
            int s = words.start(w);
            int e = words.end(w);
            while ((nextAngle >= 0 && nextAngle < s) || (nextBracket >= 0 && nextBracket < s)) {
                boolean angle = nextBracket < 0 || (nextAngle >= 0 && nextAngle < nextBracket);
                int at = angle ? nextAngle : nextBracket;
                markup(text, at, windows);
                if (angle) {
                    nextAngle = text.indexOf('<', at + 1);
                } else {
                    nextBracket = text.indexOf('[', at + 1);
                }
            }
            recent.push(w, s, mask);
            int hit = trigger(text, recent, e);
            if (hit >= 0) {
                add(windows, hit, e, recent.kind);
            }
        }
        for (int at = nextAngle; at >= 0; at = text.indexOf('<', at + 1)) {
            markup(text, at, windows);
        }
        for (int at = nextBracket; at >= 0; at = text.indexOf('[', at + 1)) {
            markup(text, at, windows);
        }
        return windows;
    }

    /**
     * The last few classified words, by their place among all the words: a phrase's words are
     * counted in words of the text ("ignore … instructions" within five), and unclassified words
     * in between still count, though only classified ones are kept.
     */
    private static final class Recent {
        private final int[] ordinals = new int[RECENT];
        private final int[] starts = new int[RECENT];
        private final int[] masks = new int[RECENT];
        private int count;
        /** The kind of the phrase the last {@link #trigger} found (an index of {@link #KINDS}). */
        int kind;

        void push(int ordinal, int start, int mask) {
            int slot = count % RECENT;
            ordinals[slot] = ordinal;
            starts[slot] = start;
            masks[slot] = mask;
            count++;
        }

        int newestMask() {
            return masks[(count - 1) % RECENT];
        }

        int newestStart() {
            return starts[(count - 1) % RECENT];
        }

        /** The slot of the word {@code back} words before the newest, or -1 if it is not classified. */
        private int slot(int back) {
            int target = ordinals[(count - 1) % RECENT] - back;
            for (int j = 1; j <= back && j < count && j < RECENT; j++) {
                int slot = (count - 1 - j) % RECENT;
                if (ordinals[slot] == target) {
                    return slot;
                }
                if (ordinals[slot] < target) {
                    return -1;
                }
            }
            return -1;
        }

        /** Whether the word {@code back} words before the newest has one of the bits. */
        boolean previous(int back, int bits) {
            int slot = slot(back);
            return slot >= 0 && (masks[slot] & bits) != 0;
        }

        int startOf(int back) {
            return starts[slot(back)];
        }

        /** The start of the nearest word within {@code within} words before the newest that has one of the bits, or -1. */
        int within(int within, int bits) {
            return within(within, bits, at -> false);
        }

        /** {@link #within(int, int)}, passing over the words {@code skip} says are no such word where they stand. */
        int within(int within, int bits, IntPredicate skip) {
            int newest = ordinals[(count - 1) % RECENT];
            for (int j = 1; j < count && j < RECENT; j++) {
                int slot = (count - 1 - j) % RECENT;
                if (newest - ordinals[slot] > within) {
                    return -1;
                }
                if ((masks[slot] & bits) != 0 && !skip.test(starts[slot])) {
                    return starts[slot];
                }
            }
            return -1;
        }
    }

    /** The start of the phrase the newest word completes, or -1. */
    private static int trigger(String text, Recent recent, int end) {
        recent.kind = 0;
        int mask = recent.newestMask();
        int s = recent.newestStart();
        if ((mask & W_ALARM) != 0) {
            return s;
        }
        if ((mask & W_RULES) != 0) {
            int earlier = recent.within(5, W_DISMISS | W_DISCLOSE);
            if (earlier >= 0 && !inJsonPointer(text, earlier)) {
                return earlier;
            }
        }
        if ((mask & W_NEW_WHAT) != 0) {
            int earlier = recent.within(2, W_NEW);
            if (earlier >= 0) {
                return earlier;
            }
        }
        if ((mask & W_PROMPT) != 0 && recent.previous(1, W_SYSTEM)) {
            return recent.startOf(1);
        }
        if ((mask & W_NOW) != 0 && recent.previous(1, W_ARE) && recent.previous(2, W_YOU)) {
            return recent.startOf(2);
        }
        if ((mask & W_ON) != 0 && recent.previous(1, W_NOW) && recent.previous(2, W_FROM)) {
            return recent.startOf(2);
        }
        if ((mask & (W_TOOL | W_TASK)) != 0) {
            int earlier = recent.within(4, W_CALL, at -> nameHead(text, at));
            if (earlier >= 0 && !inJsonPointer(text, earlier)) {
                recent.kind = (mask & W_TOOL) != 0 ? 1 : 0;
                return earlier;
            }
        }
        if ((mask & W_LOOT) != 0) {
            int earlier = recent.within(6, W_SEND);
            if (earlier >= 0 && !inJsonPointer(text, earlier) && !inJsonPointer(text, s)
                    && !(quotedAlone(text, earlier, wordEnd(text, earlier)) && memberName(text, s, end))) {
                return earlier;
            }
        }
        if ((mask & W_TELL) != 0 && recent.previous(1, W_NOT) && recent.previous(2, W_DO)) {
            return recent.startOf(2);
        }
        if ((mask & W_AS) != 0 && recent.previous(1, W_ACT)) {
            return recent.startOf(1);
        }
        if ((mask & (W_ADDRESSEE | W_IMPORTANT)) != 0) {
            int j = end;
            while (j < text.length() && text.charAt(j) == ' ') {
                j++;
            }
            if (j < text.length() && (text.charAt(j) == ':' || text.charAt(j) == ',' || text.charAt(j) == '!')) {
                recent.kind = 2;
                return s;
            }
        }
        return -1;
    }

    /**
     * Whether the word at {@code wordStart} is a step of a JSON pointer written as a JSON string
     * ({@code "/email"}, {@code "/user/email"}): a validation error a server put after its own
     * prose ({@code [{"path":"/email","message":…}]}) names the field, it does not say "email the
     * messages". Narrow on purpose: quotes and commas alone between the words ({@code Ignore",
     * "all previous instructions}) are no exemption. Looks at most 64 characters either side.
     */
    private static boolean inJsonPointer(String text, int wordStart) {
        int start = wordStart;
        int limit = Math.max(0, wordStart - 64);
        while (start > limit && isPointerChar(text.charAt(start - 1))) {
            start--;
        }
        if (text.charAt(start) != '/') {
            return false;
        }
        int end = wordStart;
        int max = Math.min(text.length(), wordStart + 64);
        while (end < max && isPointerChar(text.charAt(end))) {
            end++;
        }
        if (start > 0 && text.charAt(start - 1) == '"' && end < text.length() && text.charAt(end) == '"') {
            return true;
        }
        // a pointer heading a validation message's line: "/data/attributes/email: must be …"
        int firstSegmentEnd = text.indexOf('/', start + 1);
        return JsonPointers.standsAsPointer(text, start, end,
                firstSegmentEnd < 0 || firstSegmentEnd > end ? end : firstSegmentEnd);
    }

    /** Words that make a hyphenated "name" a phrase in disguise: "`call-the` admin tool", "`run-now`". */
    private static final Set<String> FUNCTION_WORDS = Set.of("the", "a", "an", "this", "that", "these", "those",
            "it", "its", "me", "them", "now", "back", "all", "please", "immediately");

    /**
     * Whether the word at {@code start} heads a quoted, hyphenated name ({@code
     * `trigger-sampling-request`}): a tool's name that starts with a verb, as in "Registers a
     * `trigger-sampling-request` tool", tells the model nothing to do. Only in quotes or backticks,
     * closed by the same mark, and with no function word among its parts: unquoted, "Use-the send
     * tool" is still an order.
     */
    private static boolean nameHead(String text, int start) {
        if (start == 0) {
            return false;
        }
        char quote = text.charAt(start - 1);
        if (quote != '`' && quote != '"' && quote != '\'') {
            return false;
        }
        int end = wordEnd(text, start);
        if (end + 1 >= text.length() || text.charAt(end) != '-' || !Text.isAlnum(text.charAt(end + 1))) {
            return false;
        }
        int limit = Math.min(text.length(), start + MAX_NAME);
        int part = end + 1;
        for (int i = part; i < limit; i++) {
            char c = text.charAt(i);
            if (c == '-' || c == quote) {
                if (i == part || FUNCTION_WORDS.contains(text.substring(part, i).toLowerCase(Locale.ROOT))) {
                    return false;
                }
                if (c == quote) {
                    return true;
                }
                part = i + 1;
            } else if (!Text.isAlnum(c)) {
                return false;
            }
        }
        return false;
    }

    /** The longest quoted name {@link #nameHead} reads (a tool's name is at most 128 characters in MCP's own limit). */
    private static final int MAX_NAME = 128;

    /**
     * A word that is a JSON string by itself ({@code "email"}, quotes escaped or not): one word
     * carries no instruction, so with the member name after it ({@code "email"},"message":…) it
     * makes no phrase. Both must stand alone in their quotes.
     */
    private static boolean quotedAlone(String text, int start, int end) {
        return start > 0 && text.charAt(start - 1) == '"' && end < text.length() && (text.charAt(end) == '"'
                || (text.charAt(end) == '\\' && end + 1 < text.length() && text.charAt(end + 1) == '"'));
    }

    /** Whether the word at {@code [start, end)} is a whole JSON member name: {@code "message":}. */
    private static boolean memberName(String text, int start, int end) {
        if (!quotedAlone(text, start, end)) {
            return false;
        }
        int j = text.charAt(end) == '"' ? end + 1 : end + 2;
        while (j < text.length() && (text.charAt(j) == ' ' || text.charAt(j) == '\\' || text.charAt(j) == '"')) {
            j++;
        }
        return j < text.length() && text.charAt(j) == ':';
    }

    private static int wordEnd(String text, int start) {
        int i = start;
        while (i < text.length() && Text.isAlnum(text.charAt(i))) {
            i++;
        }
        return i;
    }

    private static boolean isPointerChar(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '/' || c == '_'
                || c == '-' || c == '~' || c == '.';
    }

    private static void markup(String text, int at, List<int[]> windows) {
        int n = text.length();
        int j = at + 1;
        if (j < n && text.charAt(j) == '/') {
            j++;
        }
        while (j < n && text.charAt(j) == ' ') {
            j++;
        }
        int end = markupEnd(text, j);
        if (end > 0) {
            add(windows, at, end, 0);
        }
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

    /** A window {start, end, kind}; overlapping windows merge, and a merge of two kinds is no guidance. */
    private static void add(List<int[]> windows, int start, int end, int kind) {
        if (!windows.isEmpty()) {
            int[] last = windows.get(windows.size() - 1);
            if (start <= last[1]) {
                last[1] = Math.max(last[1], end);
                last[2] = last[2] == kind ? kind : 0;
                return;
            }
        }
        windows.add(new int[] {start, end, kind});
    }
}
