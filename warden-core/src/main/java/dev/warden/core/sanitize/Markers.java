package dev.warden.core.sanitize;

import dev.warden.core.sanitize.detection.Finding;
import java.util.ArrayList;
import java.util.List;

/**
 * Warden's own placeholders ({@code [redacted:url-password]}, {@code [redacted:stack-trace]}) in a
 * text: a marker stands where a value was and is never a value itself. Without this, a text Warden
 * sanitized already (an answer relayed by another gateway, or audited through {@code warden wrap})
 * would be found to hold a "password" {@code [redacted:url-password]}, or a database name
 * {@code redacted:column-name} to be bracketed again: sanitizing must be idempotent on its own output.
 */
final class Markers {

    private static final String OPEN = "[redacted:";
    private static final int MAX_KIND_CHARS = 64;

    private Markers() {
    }

    /** Whether {@code text} is exactly one marker. */
    static boolean isMarker(String text) {
        return text.startsWith(OPEN) && markerEnd(text, 0) == text.length();
    }

    /** The findings that do not lie wholly inside a marker; {@code findings} itself when none does. */
    static List<Finding> outside(String text, List<Finding> findings) {
        if (findings.isEmpty() || !text.contains(OPEN)) {
            return findings;
        }
        List<int[]> markers = new ArrayList<>();
        for (int at = text.indexOf(OPEN); at >= 0; at = text.indexOf(OPEN, at + 1)) {
            int end = markerEnd(text, at);
            if (end > 0) {
                markers.add(new int[] {at, end});
            }
        }
        if (markers.isEmpty()) {
            return findings;
        }
        List<Finding> kept = new ArrayList<>(findings.size());
        for (Finding f : findings) {
            if (!inside(f, markers)) {
                kept.add(f);
            }
        }
        return kept.size() == findings.size() ? findings : kept;
    }

    private static boolean inside(Finding f, List<int[]> markers) {
        for (int[] m : markers) {
            if (f.start() >= m[0] && f.end() <= m[1]) {
                return true;
            }
        }
        return false;
    }

    /** Where the marker opening at {@code at} ends (after its {@code ]}), or -1 if it is none. */
    private static int markerEnd(String text, int at) {
        int i = at + OPEN.length();
        int limit = Math.min(text.length(), i + MAX_KIND_CHARS + 1);
        int kindStart = i;
        while (i < limit) {
            char c = text.charAt(i);
            if (c == ']') {
                return i > kindStart ? i + 1 : -1;
            }
            if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) {
                return -1;
            }
            i++;
        }
        return -1;
    }
}
