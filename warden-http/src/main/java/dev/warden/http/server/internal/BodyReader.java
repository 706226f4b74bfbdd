package dev.warden.http.server.internal;

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
 */
final class BodyReader implements Runnable {

    /** How a read ended; the caller answers each. */
    sealed interface Outcome {
        record Read(byte[] body) implements Outcome {
        }

        /** Declared or sent beyond the cap; the rest is left unread. */
        record TooLarge() implements Outcome {
        }

        /** The connection failed or was closed (a request deadline, say) before the body was whole. */
        record Failed(Throwable cause) implements Outcome {
        }
    }

    private final Request request;
    private final int maxBytes;
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
    static void read(Request request, int maxBytes, Consumer<Outcome> then) {
        if (request.getLength() > maxBytes) {
            then.accept(new Outcome.TooLarge());
            return;
        }
        new BodyReader(request, maxBytes, then).run();
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
            boolean fits;
            try {
                ByteBuffer bytes = chunk.getByteBuffer();
                fits = body.size() + bytes.remaining() <= maxBytes;
                if (fits) {
                    byte[] copy = new byte[bytes.remaining()];
                    bytes.get(copy);
                    body.writeBytes(copy);
                }
            } finally {
                chunk.release();
            }
            if (!fits) {
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
