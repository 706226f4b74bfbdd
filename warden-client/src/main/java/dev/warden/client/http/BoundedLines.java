package dev.warden.client.http;

import dev.warden.core.jsonrpc.FrameHints;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Lines of an event stream or a JSON body, each at most {@code max} bytes: a longer one is read
 * through without being kept, only its first and last {@link FrameHints#EDGE} bytes, so a server
 * cannot make the client hold an answer of any size.
 */
final class BoundedLines {

    /** One line: its text, or (too long) the edges that tell whose answer it was. */
    record Line(String text, boolean oversized, byte[] head, byte[] tail) {
    }

    private final InputStream in;
    private final int max;
    private final byte[] buffer = new byte[8192];
    private int pos;
    private int limit;

    BoundedLines(InputStream in, int max) {
        this.in = in;
        this.max = max;
    }

    /** The next line without its end ({@code \n}, {@code \r\n}); null at the end of the input. */
    Line next() throws IOException {
        byte[] line = new byte[256];
        int length = 0;
        boolean over = false;
        byte[] head = null;
        byte[] ring = new byte[FrameHints.EDGE];
        long total = 0;
        while (true) {
            if (pos == limit) {
                limit = in.read(buffer);
                pos = 0;
                if (limit <= 0) {
                    limit = 0;
                    if (length == 0 && !over) {
                        return null;
                    }
                    break;
                }
            }
            byte b = buffer[pos++];
            if (b == '\n') {
                break;
            }
            if (!over && length == max) {
                over = true;
                head = Arrays.copyOf(line, Math.min(length, FrameHints.EDGE));
                for (int i = Math.max(0, length - ring.length); i < length; i++) {
                    ring[(int) (total++ % ring.length)] = line[i];
                }
            }
            if (over) {
                ring[(int) (total++ % ring.length)] = b;
            } else {
                if (length == line.length) {
                    line = Arrays.copyOf(line, Math.min(max, line.length * 2));
                }
                line[length++] = b;
            }
        }
        if (over) {
            int size = (int) Math.min(total, ring.length);
            byte[] tail = new byte[size];
            for (int i = 0; i < size; i++) {
                tail[i] = ring[(int) ((total - size + i) % ring.length)];
            }
            if (size > 0 && tail[size - 1] == '\r') {
                tail = Arrays.copyOf(tail, size - 1);
            }
            return new Line("", true, head, tail);
        }
        if (length > 0 && line[length - 1] == '\r') {
            length--;
        }
        return new Line(new String(line, 0, length, StandardCharsets.UTF_8), false, null, null);
    }
}
