package dev.warden.http.server.internal.request;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.function.Consumer;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;

/**
 * Reads a request's body, capped, with no thread waiting for its bytes. Jetty's virtual-thread
 * pool runs at most 200 tasks at once (the others queue for a permit); a blocking read held one per
 * client for as long as its body took, so 200 clients trickling bodies a byte at a time (slowloris)
 * left every other connection waiting, honest requests and the opening of new connections alike,
 * until the request deadline cut them 30 s later. Here a body still to come costs a demand
 * registered with Jetty, nothing more; the deadline's close of the connection fails that demand,
 * which ends as {@link Outcome.Failed}.
 *
 * <p>A body over the cap is read on and thrown away, up to {@link #DRAIN_BYTES} more, before the
 * refusal is sent: a client that sends its whole body before reading the answer (the JDK's client
 * does) would otherwise have the connection closed under it with bytes unread, which the kernel
 * answers with a reset that takes the 413 with it ("received no bytes" instead of the error). A
 * body larger still is refused at once and its connection closed. Dropping costs a copy per byte
 * and no thread; the request deadline still bounds how long a client may take to send it.
 */
public final class BodyReader implements Runnable {

    /** How a read ended; the caller answers each. */
    public sealed interface Outcome {
        record Read(byte[] body) implements Outcome {
        }

        /** Declared or sent beyond the cap (read on and dropped up to {@link #DRAIN_BYTES} more). */
        record TooLarge() implements Outcome {
        }

        /** The connection failed or was closed (a request deadline, say) before the body was whole. */
        record Failed(Throwable cause) implements Outcome {
        }
    }

    /**
     * How much of a body over the cap is read and thrown away so that its refusal arrives: 1 MiB
     * was too little for a 50 MiB body sent whole (the attack suite's, refused by a reset under
     * load). What nginx and Apache bound by time alone (a lingering close) is bounded here in bytes
     * too, so a client cannot keep a core copying for the whole request deadline.
     */
    static final long DRAIN_BYTES = 64L * 1024 * 1024;

    private final Request request;
    private final int maxBytes;
    /** Over the cap: what comes is counted and dropped until the body ends. */
    private boolean draining;
    private long drained;
    private final Consumer<Outcome> then;
    private final ByteArrayOutputStream body = new ByteArrayOutputStream();

    private BodyReader(Request request, int maxBytes, Consumer<Outcome> then) {
        this.request = request;
        this.maxBytes = maxBytes;
        this.then = then;
    }

    /**
     * Reads the body and hands the outcome to {@code then}: at once if the bytes are there, else on
     * one of Jetty's threads once they have come (which may block: the demand is a blocking task).
     */
    public static void read(Request request, int maxBytes, Consumer<Outcome> then) {
        long declared = request.getLength();
        if (declared > maxBytes + DRAIN_BYTES) {
            then.accept(new Outcome.TooLarge());
            return;
        }
        BodyReader reader = new BodyReader(request, maxBytes, then);
        reader.draining = declared > maxBytes;
        reader.run();
    }

    /** Takes what has arrived; registers for more, or hands on the outcome. */
    @Override
    public void run() {
        while (true) {
            Content.Chunk chunk = request.read();
            if (chunk == null) {
                request.demand(this);
                return;
            }
            if (Content.Chunk.isFailure(chunk)) {
                then.accept(new Outcome.Failed(chunk.getFailure()));
                return;
            }
            try {
                ByteBuffer bytes = chunk.getByteBuffer();
                if (!draining && body.size() + bytes.remaining() > maxBytes) {
                    draining = true;
                    drained = body.size();
                    body.reset();
                }
                if (draining) {
                    drained += bytes.remaining();
                } else {
                    byte[] copy = new byte[bytes.remaining()];
                    bytes.get(copy);
                    body.writeBytes(copy);
                }
            } finally {
                chunk.release();
            }
            if (draining && (chunk.isLast() || drained > maxBytes + DRAIN_BYTES)) {
                then.accept(new Outcome.TooLarge());
                return;
            }
            if (chunk.isLast()) {
                then.accept(new Outcome.Read(body.toByteArray()));
                return;
            }
        }
    }
}
