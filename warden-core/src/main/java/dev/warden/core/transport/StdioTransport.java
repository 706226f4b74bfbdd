package dev.warden.core.transport;

import dev.warden.core.jsonrpc.FrameHints;
import dev.warden.core.error.ProtocolException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Newline-delimited JSON over a pair of byte streams (the MCP stdio transport). A line longer than
 * the limit is skipped to its end without being buffered, answered with one error, and reading goes
 * on: one oversized message does not take the server down.
 */
public final class StdioTransport implements Transport {

    /**
     * Large enough for the answers real servers give (a file of 20 MB read through a filesystem
     * server is about twice that on the wire, as text and as structured content); a bound, not a
     * buffer: a line takes only the memory it needs.
     */
    public static final int DEFAULT_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

    private final InputStream in;
    private final OutputStream out;
    private final int maxMessageBytes;
    private final Object writeLock = new Object();
    private final AtomicBoolean started = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile Listener listener;
    private final AtomicBoolean closeNotified = new AtomicBoolean();

    private StdioTransport(InputStream in, OutputStream out, int maxMessageBytes) {
        this.in = Objects.requireNonNull(in, "in");
        this.out = Objects.requireNonNull(out, "out");
        if (maxMessageBytes < 64) {
            throw new IllegalArgumentException("maxMessageBytes must be at least 64, got " + maxMessageBytes);
        }
        this.maxMessageBytes = maxMessageBytes;
    }

    public static StdioTransport of(InputStream in, OutputStream out) {
        return new StdioTransport(in, out, DEFAULT_MAX_MESSAGE_BYTES);
    }

    public static StdioTransport of(InputStream in, OutputStream out, int maxMessageBytes) {
        return new StdioTransport(in, out, maxMessageBytes);
    }

    public int maxMessageBytes() {
        return maxMessageBytes;
    }

    @Override
    public void start(Listener listener) {
        Objects.requireNonNull(listener, "listener");
        if (!started.compareAndSet(false, true)) {
            throw new IllegalStateException("transport already started");
        }
        this.listener = listener;
        Thread.ofPlatform().daemon().name("warden-stdio-reader").start(this::readLoop);
    }

    private void readLoop() {
        byte[] buffer = new byte[8192];
        byte[] line = new byte[1024];
        int length = 0;
        Oversize oversize = null; // non-null while the current line is over the limit
        try {
            int n;
            while (!closed.get() && (n = in.read(buffer)) != -1) {
                int start = 0;
                for (int i = 0; i < n; i++) {
                    if (buffer[i] != '\n') {
                        continue;
                    }
                    int chunk = i - start;
                    if (oversize != null) {
                        oversize.add(buffer, start, chunk);
                    } else if (length + chunk > maxMessageBytes + 1) {
                        oversize = new Oversize(line, length, buffer, start, chunk);
                    } else {
                        line = append(line, length, buffer, start, chunk);
                        length += chunk;
                    }
                    deliver(line, length, oversize);
                    length = 0;
                    oversize = null;
                    start = i + 1;
                }
                if (start < n) {
                    int chunk = n - start;
                    if (oversize != null) {
                        oversize.add(buffer, start, chunk);
                    } else if (length + chunk > maxMessageBytes + 1) {
                        oversize = new Oversize(line, length, buffer, start, chunk);
                        length = 0;
                    } else {
                        line = append(line, length, buffer, start, chunk);
                        length += chunk;
                    }
                }
            }
            if (oversize != null || length > 0) {
                deliver(line, length, oversize);
            }
        } catch (IOException e) {
            // The pipe broke: nothing more can be read, and likely nothing written.
            close();
            return;
        }
        if (!closed.get()) {
            // A clean EOF: the peer is done sending but may still read our answers.
            listener.onInputEnded();
        }
    }

    /** The first and last bytes of a line over the limit, kept to find its id; the rest is dropped unread. */
    private static final class Oversize {
        private final byte[] head;
        private final byte[] ring = new byte[FrameHints.EDGE];
        private long total;

        Oversize(byte[] line, int length, byte[] buffer, int start, int chunk) {
            byte[] first = new byte[Math.min(FrameHints.EDGE, length + chunk)];
            int fromLine = Math.min(first.length, length);
            System.arraycopy(line, 0, first, 0, fromLine);
            System.arraycopy(buffer, start, first, fromLine, first.length - fromLine);
            this.head = first;
            add(line, 0, length);
            add(buffer, start, chunk);
        }

        void add(byte[] bytes, int offset, int count) {
            int from = Math.max(offset, offset + count - ring.length);
            total += from - offset; // bytes that cannot be among the last ring-full still count
            for (int i = from; i < offset + count; i++) {
                ring[(int) (total++ % ring.length)] = bytes[i];
            }
        }

        byte[] tail() {
            int size = (int) Math.min(total, ring.length);
            byte[] out = new byte[size];
            for (int i = 0; i < size; i++) {
                out[i] = ring[(int) ((total - size + i) % ring.length)];
            }
            // a trailing CR belongs to the line ending, not the frame
            return size > 0 && out[size - 1] == '\r' ? java.util.Arrays.copyOf(out, size - 1) : out;
        }
    }

    private void deliver(byte[] line, int length, Oversize oversize) {
        int end = length;
        if (oversize == null && end > 0 && line[end - 1] == '\r') {
            end--;
        }
        // The reader buffers one byte past the limit for a trailing CR, so both cases land here.
        if (oversize != null || end > maxMessageBytes) {
            // A refusal, not an answer: the session records it and renders it with a ref.
            ProtocolException error = ProtocolException.invalidRequest(
                    "Invalid request: the message exceeds the maximum size of " + maxMessageBytes + " bytes");
            if (oversize != null) {
                listener.onOversizedFrame(FrameHints.of(oversize.head, oversize.tail()), error);
            } else {
                listener.onOversizedFrame(FrameHints.of(Arrays.copyOf(line, Math.min(end, FrameHints.EDGE)),
                        Arrays.copyOfRange(line, Math.max(0, end - FrameHints.EDGE), end)), error);
            }
            return;
        }
        if (isBlank(line, end)) {
            return;
        }
        listener.onFrame(Arrays.copyOf(line, end));
    }

    private static boolean isBlank(byte[] line, int end) {
        for (int i = 0; i < end; i++) {
            byte b = line[i];
            if (b != ' ' && b != '\t' && b != '\r') {
                return false;
            }
        }
        return true;
    }

    private static byte[] append(byte[] line, int length, byte[] src, int from, int count) {
        if (length + count > line.length) {
            line = Arrays.copyOf(line, Math.max(line.length * 2, length + count));
        }
        System.arraycopy(src, from, line, length, count);
        return line;
    }

    @Override
    public void send(String frame) {
        byte[] bytes = (frame + "\n").getBytes(StandardCharsets.UTF_8);
        synchronized (writeLock) {
            if (closed.get()) {
                throw new TransportClosedException("transport is closed", null);
            }
            try {
                out.write(bytes);
                out.flush();
            } catch (IOException e) {
                close();
                throw new TransportClosedException("write failed", e);
            }
        }
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            in.close();
        } catch (IOException ignored) {
            // closing is best effort
        }
        synchronized (writeLock) {
            try {
                out.flush();
            } catch (IOException ignored) {
                // the peer is gone
            }
        }
        Listener l = listener;
        if (l != null && closeNotified.compareAndSet(false, true)) {
            l.onClose();
        }
    }
}
