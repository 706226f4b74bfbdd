package dev.warden.core.jsonrpc;

import dev.warden.core.json.Json;
import java.util.Optional;

/**
 * What can be read of a frame too large to decode, from its first and last bytes: its top-level
 * {@code id} and whether it has a top-level {@code method}. Enough to answer an oversized request
 * with its own id, or to fail the request an oversized response answers, instead of leaving either
 * without an answer. Both scans are linear and never decode more than the bytes given.
 */
public record FrameHints(Optional<RequestId> id, boolean hasMethod) {

    /** How many bytes of each end a transport keeps of an oversized frame. */
    public static final int EDGE = 512;

    public static FrameHints of(byte[] head, byte[] tail) {
        Scan forward = forward(head);
        Optional<RequestId> id = forward.id;
        boolean method = forward.method;
        if (id.isEmpty() || !method) {
            Scan backward = backward(tail);
            id = id.or(() -> backward.id);
            method = method || backward.method;
        }
        return new FrameHints(id, method);
    }

    private static final class Scan {
        Optional<RequestId> id = Optional.empty();
        boolean method;

        void key(String key, String value) {
            if (key.equals("method")) {
                method = true;
            } else if (key.equals("id") && id.isEmpty() && !value.isEmpty()) {
                try {
                    id = RequestId.fromJson(Json.mapper().readTree(value));
                } catch (RuntimeException e) {
                    // a cut or malformed value: no id
                }
            }
        }
    }

    /** From the start: keys at depth 1, and the value of each (when it ends inside the head). */
    private static Scan forward(byte[] b) {
        Scan scan = new Scan();
        int depth = 0;
        int i = 0;
        while (i < b.length) {
            byte c = b[i];
            if (c == '"') {
                int end = stringEnd(b, i);
                if (end < 0) {
                    return scan;
                }
                if (depth == 1) {
                    int colon = skipSpace(b, end + 1);
                    if (colon < b.length && b[colon] == ':') {
                        String key = new String(b, i + 1, end - i - 1, java.nio.charset.StandardCharsets.UTF_8);
                        int start = skipSpace(b, colon + 1);
                        int valueEnd = scalarEnd(b, start);
                        scan.key(key, valueEnd < 0 ? "" : new String(b, start, valueEnd - start,
                                java.nio.charset.StandardCharsets.UTF_8));
                        i = colon + 1;
                        continue;
                    }
                }
                i = end + 1;
                continue;
            }
            if (c == '{' || c == '[') {
                depth++;
            } else if (c == '}' || c == ']') {
                depth--;
            }
            i++;
        }
        return scan;
    }

    /** From the end: the frame closes at depth 0, so keys just inside its last brace are top-level. */
    private static Scan backward(byte[] b) {
        Scan scan = new Scan();
        int depth = 0;
        int valueEnd = b.length;
        int i = b.length - 1;
        while (i >= 0) {
            byte c = b[i];
            if (c == '"' && !escaped(b, i)) {
                int start = stringStartBackward(b, i);
                if (start < 0) {
                    return scan;
                }
                i = start - 1;
                continue;
            }
            if (c == '}' || c == ']') {
                depth++;
                if (depth == 1) {
                    valueEnd = i;
                }
            } else if (c == '{' || c == '[') {
                depth--;
            } else if (depth == 1 && c == ',') {
                valueEnd = i;
            } else if (depth == 1 && c == ':') {
                int keyEnd = skipSpaceBackward(b, i - 1);
                if (keyEnd >= 0 && b[keyEnd] == '"') {
                    int keyStart = stringStartBackward(b, keyEnd);
                    if (keyStart >= 0) {
                        String key = new String(b, keyStart + 1, keyEnd - keyStart - 1,
                                java.nio.charset.StandardCharsets.UTF_8);
                        scan.key(key, new String(b, i + 1, valueEnd - i - 1, java.nio.charset.StandardCharsets.UTF_8)
                                .strip());
                        i = keyStart - 1;
                        continue;
                    }
                }
            }
            i--;
        }
        return scan;
    }

    private static int stringEnd(byte[] b, int open) {
        for (int i = open + 1; i < b.length; i++) {
            if (b[i] == '\\') {
                i++;
            } else if (b[i] == '"') {
                return i;
            }
        }
        return -1;
    }

    private static int stringStartBackward(byte[] b, int close) {
        for (int i = close - 1; i >= 0; i--) {
            if (b[i] == '"' && !escaped(b, i)) {
                return i;
            }
        }
        return -1;
    }

    /** Preceded by an odd number of backslashes. */
    private static boolean escaped(byte[] b, int i) {
        int n = 0;
        for (int j = i - 1; j >= 0 && b[j] == '\\'; j--) {
            n++;
        }
        return n % 2 == 1;
    }

    /** Where a scalar value (number or string) ends, exclusive; -1 if it does not end inside. */
    private static int scalarEnd(byte[] b, int start) {
        if (start >= b.length) {
            return -1;
        }
        if (b[start] == '"') {
            int end = stringEnd(b, start);
            return end < 0 ? -1 : end + 1;
        }
        for (int i = start; i < b.length; i++) {
            if (b[i] == ',' || b[i] == '}' || b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
                return i;
            }
        }
        return -1;
    }

    private static int skipSpace(byte[] b, int i) {
        while (i < b.length && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n')) {
            i++;
        }
        return i;
    }

    private static int skipSpaceBackward(byte[] b, int i) {
        while (i >= 0 && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n')) {
            i--;
        }
        return i;
    }
}
