package dev.warden.core.transport;

import dev.warden.core.jsonrpc.FrameHints;
import dev.warden.core.error.ProtocolException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Newline-delimited JSON over a pair of byte streams (the MCP stdio transport). A line longer than
 * the limit is skipped to its end without being buffered, answered with one error, and reading goes
 * on: one oversized message does not take the server down.
 *
 * <p>Frames sent are queued (bounded by {@link OutgoingLimits}) and written by one writer thread, so
 * a peer that stops reading blocks that thread, never a caller: a sender waits for room in the queue
 * at most {@link OutgoingLimits#maxWait()}, or a request until its own answer (timeout) comes. The
 * reader and the writer are platform threads: a blocking read or write on a pipe would hold a
 * virtual thread's carrier.
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
    private final OutgoingLimits limits;
    /** Guards the queue; never held while writing, so a blocked write holds no sender. */
    private final ReentrantLock queueLock = new ReentrantLock();
    private final Condition queued = queueLock.newCondition();
    private final Condition room = queueLock.newCondition();
    private final ArrayDeque<Outgoing> queue = new ArrayDeque<>();
    /** Bytes queued plus the frame being written. */
    private long queuedBytes;
    /** Run by the writer once it wrote its last frame (a child's stdin is closed there). */
    private final Runnable afterLastWrite;
    private final CountDownLatch writerDone = new CountDownLatch(1);
    private volatile Thread writer;
    private final AtomicBoolean writerStarted = new AtomicBoolean();
    private final AtomicBoolean started = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile Listener listener;
    private final AtomicBoolean closeNotified = new AtomicBoolean();
    /** Counted down as the listener hears that the input ended or the transport closed. */
    private final CountDownLatch inputOver = new CountDownLatch(1);

    /** How long {@link #close()} waits for frames already queued to be written. */
    private static final long CLOSE_DRAIN_MILLIS = 5_000;

    private static final System.Logger LOG = System.getLogger(StdioTransport.class.getName());

    /** One frame waiting to be written; a request's is dropped if its answer came first (it timed out). */
    private record Outgoing(byte[] bytes, CompletableFuture<?> answered) {
        boolean moot() {
            return answered != null && answered.isDone();
        }
    }

    private StdioTransport(InputStream in, OutputStream out, int maxMessageBytes, OutgoingLimits limits,
                           Runnable afterLastWrite) {
        this.in = Objects.requireNonNull(in, "in");
        this.out = Objects.requireNonNull(out, "out");
        if (maxMessageBytes < 64) {
            throw new IllegalArgumentException("maxMessageBytes must be at least 64, got " + maxMessageBytes);
        }
        this.maxMessageBytes = maxMessageBytes;
        this.limits = Objects.requireNonNull(limits, "limits");
        this.afterLastWrite = afterLastWrite;
    }

    public static StdioTransport of(InputStream in, OutputStream out) {
        return of(in, out, DEFAULT_MAX_MESSAGE_BYTES);
    }

    public static StdioTransport of(InputStream in, OutputStream out, int maxMessageBytes) {
        return of(in, out, maxMessageBytes, OutgoingLimits.DEFAULTS);
    }

    /** @param limits how much is queued for a peer slow to read, and how long a sender waits for room */
    public static StdioTransport of(InputStream in, OutputStream out, int maxMessageBytes, OutgoingLimits limits) {
        return new StdioTransport(in, out, maxMessageBytes, limits, () -> { });
    }

    /** A child's stdin: closed by the writer once the last queued frame is written (its end of input). */
    static StdioTransport ofChild(InputStream in, OutputStream out, int maxMessageBytes, OutgoingLimits limits) {
        return new StdioTransport(in, out, maxMessageBytes, limits, () -> {
            try {
                out.close();
            } catch (IOException ignored) {
                // the child is gone
            }
        });
    }

    public OutgoingLimits limits() {
        return limits;
    }

    /** Bytes queued for the peer and not yet written (for tests and metrics). */
    public long queuedBytes() {
        queueLock.lock();
        try {
            return queuedBytes;
        } finally {
            queueLock.unlock();
        }
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
        startWriter();
        Thread.ofPlatform().daemon().name("warden-stdio-reader").start(this::guardedReadLoop);
    }

    /** The writer starts with the first frame or with {@link #start}, whichever comes first. */
    private void startWriter() {
        if (writerStarted.compareAndSet(false, true)) {
            writer = Thread.ofPlatform().daemon().name("warden-stdio-writer").start(this::writeLoop);
        }
    }

    /**
     * The reader never dies silently: whatever a listener throws (an OutOfMemoryError in a flood,
     * a bug) closes the transport, so its session fails what it waits for instead of waiting forever.
     */
    private void guardedReadLoop() {
        try {
            readLoop();
        } catch (Throwable t) {
            LOG.log(System.Logger.Level.ERROR, "the stdio reader failed; closing the connection", t);
            close();
        }
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
            inputOver.countDown();
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
        enqueue(frame, null);
    }

    @Override
    public void send(String frame, Route route, CompletableFuture<?> answered) {
        enqueue(frame, Objects.requireNonNull(answered, "answered"));
    }

    /**
     * Queues a frame for the writer, waiting for room at most {@link OutgoingLimits#maxWait()}, or,
     * for a request ({@code answered} set), until its answer: a request answered meanwhile (timed
     * out) is not sent at all.
     */
    private void enqueue(String frame, CompletableFuture<?> answered) {
        byte[] bytes = (frame + "\n").getBytes(StandardCharsets.UTF_8);
        startWriter();
        boolean watching = false;
        queueLock.lock();
        try {
            long waitNanos = limits.maxWait().toNanos();
            while (!closed.get() && queuedBytes > 0 && queuedBytes + bytes.length > limits.maxQueuedBytes()) {
                if (answered != null) {
                    if (answered.isDone()) {
                        return;
                    }
                    if (!watching) {
                        watching = true;
                        answered.whenComplete((value, error) -> wakeSenders());
                        continue; // it may have completed before the callback was registered
                    }
                    room.await();
                } else {
                    if (waitNanos <= 0) {
                        throw new SendTimeoutException("the peer read nothing for " + limits.maxWait()
                                + " and " + queuedBytes + " bytes wait for it");
                    }
                    waitNanos = room.awaitNanos(waitNanos);
                }
            }
            if (closed.get()) {
                throw new TransportClosedException("transport is closed", null);
            }
            queue.addLast(new Outgoing(bytes, answered));
            queuedBytes += bytes.length;
            queued.signal();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TransportClosedException("interrupted while waiting to send", e);
        } finally {
            queueLock.unlock();
        }
    }

    private void wakeSenders() {
        queueLock.lock();
        try {
            room.signalAll();
        } finally {
            queueLock.unlock();
        }
    }

    /**
     * The one writer: takes frames in order, writes them, flushes when the queue is empty. After
     * close it writes what is queued still (answers, say) and then ends; a failed write closes.
     */
    private void writeLoop() {
        try {
            while (true) {
                Outgoing next;
                boolean last;
                queueLock.lock();
                try {
                    while (queue.isEmpty() && !closed.get()) {
                        queued.await();
                    }
                    next = queue.pollFirst();
                    if (next == null) {
                        return; // closed and drained
                    }
                    last = queue.isEmpty();
                } finally {
                    queueLock.unlock();
                }
                try {
                    if (!next.moot()) {
                        out.write(next.bytes());
                    }
                    if (last) {
                        out.flush();
                    }
                } finally {
                    release(next.bytes().length);
                }
            }
        } catch (IOException e) {
            // The pipe broke: nothing more can be written, and likely nothing read.
            dropQueued();
            close();
        } catch (InterruptedException e) {
            dropQueued();
        } catch (Throwable t) {
            LOG.log(System.Logger.Level.ERROR, "the stdio writer failed; closing the connection", t);
            dropQueued();
            close();
        } finally {
            try {
                afterLastWrite.run();
            } finally {
                writerDone.countDown();
            }
        }
    }

    private void release(int bytes) {
        queueLock.lock();
        try {
            queuedBytes -= bytes;
            room.signalAll();
        } finally {
            queueLock.unlock();
        }
    }

    private void dropQueued() {
        queueLock.lock();
        try {
            queue.clear();
            queuedBytes = 0;
            room.signalAll();
        } finally {
            queueLock.unlock();
        }
    }

    /**
     * Stops reading; frames already queued are still written, and this waits a few seconds for that
     * (a peer that reads nothing does not hold it longer) before the listener hears of the close, so
     * that whoever waits for it finds the answers written.
     */
    @Override
    public void close() {
        if (!markClosed()) {
            return;
        }
        if (writer != Thread.currentThread()) {
            try {
                writerDone.await(CLOSE_DRAIN_MILLIS, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        notifyClosed();
    }

    /** Closes, leaving the writer to write what is queued on its own; false if already closed. */
    boolean closeWithoutWaiting() {
        if (!markClosed()) {
            return false;
        }
        notifyClosed();
        return true;
    }

    /**
     * Whether the listener heard within {@code timeout} that the input ended (EOF) or the transport
     * closed: a child's stdout that outlives the child does neither ({@link ProcessTransport}).
     */
    boolean awaitInputOver(Duration timeout) throws InterruptedException {
        return inputOver.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    private boolean markClosed() {
        if (!closed.compareAndSet(false, true)) {
            return false;
        }
        try {
            in.close();
        } catch (IOException ignored) {
            // closing is best effort
        }
        queueLock.lock();
        try {
            queued.signalAll();
            room.signalAll();
        } finally {
            queueLock.unlock();
        }
        if (writerStarted.compareAndSet(false, true)) {
            // no writer ever ran: nobody else runs what follows the last write
            afterLastWrite.run();
            writerDone.countDown();
        }
        return true;
    }

    private void notifyClosed() {
        Listener l = listener;
        if (l != null && closeNotified.compareAndSet(false, true)) {
            inputOver.countDown();
            l.onClose();
        }
    }
}
