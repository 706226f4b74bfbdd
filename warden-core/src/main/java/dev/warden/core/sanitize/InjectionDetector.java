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

    private static final String[] TRIGGERS = {"ignore", "disregard", "forget", "override", "bypass", "skip", "you",
            "from", "new", "reveal", "print", "show", "output", "repeat", "leak", "system", "call", "invoke", "use",
            "run", "execute", "trigger", "send", "post", "upload", "forward", "exfiltrate", "email", "transmit", "do",
            "assistant", "ai", "model", "claude", "chatgpt", "gpt", "llm", "agent", "important", "jailbreak", "act"};

    private static final int BEFORE = 8;
    private static final int AFTER = 200;

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

    /** Merged windows around trigger words and markup characters. */
    private static List<int[]> windows(String text) {
        List<int[]> windows = new ArrayList<>();
        int n = text.length();
        int i = 0;
        int currentStart = -1;
        int currentEnd = -1;
        while (i < n) {
            char c = text.charAt(i);
            int hit = -1;
            if (c == '<' || c == '[') {
                hit = i;
                i++;
            } else if (Text.isAlnum(c)) {
                int w = i;
                while (i < n && Text.isAlnum(text.charAt(i))) {
                    i++;
                }
                if (isTrigger(text, w, i)) {
                    hit = w;
                }
            } else {
                i++;
            }
            if (hit >= 0) {
                int start = Math.max(0, hit - BEFORE);
                int end = Math.min(n, hit + AFTER);
                if (currentStart >= 0 && start <= currentEnd) {
                    currentEnd = Math.max(currentEnd, end);
                } else {
                    if (currentStart >= 0) {
                        windows.add(new int[] {currentStart, currentEnd});
                    }
                    currentStart = start;
                    currentEnd = end;
                }
            }
        }
        if (currentStart >= 0) {
            windows.add(new int[] {currentStart, currentEnd});
        }
        return windows;
    }

    private static boolean isTrigger(String text, int s, int e) {
        int len = e - s;
        if (len < 2 || len > 10) {
            return false;
        }
        char first = Text.lower(text.charAt(s));
        for (String trigger : TRIGGERS) {
            if (trigger.length() == len && trigger.charAt(0) == first && Text.matchesIgnoreCase(text, s, trigger)) {
                return true;
            }
        }
        return false;
    }
}
