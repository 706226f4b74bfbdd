package dev.warden.audit.canary;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * Absolute POSIX paths named in a text (a description's "serves /srv/docs", an error's
 * {@code open '/srv/docs/../etc/passwd'}), found by a hand-written scan, and compared as
 * normalized paths ({@code .} and {@code ..} resolved).
 */
final class AbsolutePaths {

    private static final int MAX_PATHS = 64;
    private static final int MAX_PATH_CHARS = 4096;

    private AbsolutePaths() {
    }

    /** The absolute paths in {@code text}, normalized, at most {@link #MAX_PATHS}. */
    static List<String> in(String text) {
        List<String> out = new ArrayList<>();
        int i = 0;
        while (i < text.length() && out.size() < MAX_PATHS) {
            int slash = text.indexOf('/', i);
            if (slash < 0) {
                break;
            }
            int end = slash;
            while (end < text.length() && !stops(text.charAt(end)) && end - slash < MAX_PATH_CHARS) {
                end++;
            }
            int last = end;
            while (last > slash + 1 && ".:!?".indexOf(text.charAt(last - 1)) >= 0) {
                last--; // the sentence's full stop, not the path's
            }
            if (starts(text, slash) && last - slash > 1) {
                String path = normalize(text.substring(slash, last));
                if (!path.equals("/")) {
                    out.add(path);
                }
            }
            i = Math.max(end, slash + 1);
        }
        return out;
    }

    /** A path starts a word: at the text's start or after a space, a quote, a bracket, {@code =} or {@code ,}. */
    private static boolean starts(String text, int slash) {
        if (slash == 0) {
            return true;
        }
        char before = text.charAt(slash - 1);
        return Character.isWhitespace(before) || "'\"`([{<=,".indexOf(before) >= 0;
    }

    private static boolean stops(char c) {
        return Character.isWhitespace(c) || "'\"`)]}>,;|".indexOf(c) >= 0;
    }

    /** {@code /a/./b/../c} as {@code /a/c}; a {@code ..} above the root stays at the root. */
    static String normalize(String path) {
        Deque<String> segments = new ArrayDeque<>();
        for (String s : path.split("/")) {
            if (s.isEmpty() || s.equals(".")) {
                continue;
            }
            if (s.equals("..")) {
                segments.pollLast();
            } else {
                segments.addLast(s);
            }
        }
        return "/" + String.join("/", segments);
    }

    /** Whether {@code path} is {@code base} or under it (both normalized). */
    static boolean under(String path, String base) {
        return path.equals(base) || base.equals("/") || path.startsWith(base + "/");
    }

    /** How many leading segments two normalized paths share. */
    static int shared(String a, String b) {
        String[] x = a.split("/");
        String[] y = b.split("/");
        int n = 0;
        for (int i = 1; i < Math.min(x.length, y.length) && x[i].equals(y[i]); i++) {
            n++;
        }
        return n;
    }
}
