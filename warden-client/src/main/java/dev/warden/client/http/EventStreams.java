package dev.warden.client.http;

import dev.warden.core.jsonrpc.RequestId;
import dev.warden.core.transport.TransportClosedException;
import dev.warden.core.transport.UnauthorizedException;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The event streams that outlive one read: a request's stream resumed with {@code Last-Event-ID}
 * after the server's retry delay when it breaks before the answer, and the GET stream for what the
 * server sends outside any request of ours, reopened while the transport is open.
 */
final class EventStreams {

    private static final System.Logger LOG = System.getLogger(EventStreams.class.getName());
    /** Resumption attempts per broken stream before its requests are given up. */
    static final int MAX_RESUMES = 5;
    /** How long the first request waits for the server to answer the GET stream's request. */
    private static final Duration LISTEN_WAIT = Duration.ofSeconds(3);

    private final HttpExchanges exchanges;
    /** What the streams read goes here; they stop when it is closed (the transport closed). */
    private final Inbound inbound;
    private final RetryTimer timer;

    EventStreams(HttpExchanges exchanges, Inbound inbound) {
        this(exchanges, inbound, RetryTimer.SYSTEM);
    }

    EventStreams(HttpExchanges exchanges, Inbound inbound, RetryTimer timer) {
        this.exchanges = exchanges;
        this.inbound = inbound;
        this.timer = timer;
    }

    /**
     * Opens the GET stream and waits (a little) until the server answered it. Requests the server
     * makes outside any call of ours come on it; it is open (or refused) before the first request
     * goes out: a server that sends what concerns no request of ours to that stream, and drops it
     * while none is open, would otherwise lose a question asked during our first call (the
     * TypeScript SDK's servers do).
     */
    void listen() {
        CompletableFuture<Void> answered = new CompletableFuture<>();
        Thread.ofVirtual().name("warden-http-listen").start(() -> {
            try {
                listenUntilClosed(answered);
            } finally {
                answered.complete(null);
            }
        });
        try {
            answered.get(LISTEN_WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            // a server slow to answer a GET: go on without it, as before
        }
    }

    /**
     * A server that offers no GET stream answers 405 and that is the end of it; a stream that
     * breaks is reopened (resumed where it has event ids) after the server's retry delay, growing
     * to a minute while it keeps failing.
     */
    private void listenUntilClosed(CompletableFuture<Void> answered) {
        Inbound.StreamState state = new Inbound.StreamState(timer);
        long failures = 0;
        while (!inbound.closed()) {
            try {
                HttpResponse<InputStream> response = exchanges.stream(state.lastEventId);
                answered.complete(null);
                if (response.statusCode() == 405 || response.statusCode() == 404) {
                    HttpExchanges.drain(response);
                    return;
                }
                if (response.statusCode() == 200) {
                    failures = 0;
                    inbound.readEvents(response.body(), new HashSet<>(), state);
                } else {
                    HttpExchanges.drain(response);
                    state.ended();
                    failures++;
                }
            } catch (UnauthorizedException e) {
                LOG.log(System.Logger.Level.DEBUG, "the listen stream is not authorized; not listening");
                return;
            } catch (TransportClosedException e) {
                state.ended();
                failures++;
            }
            try {
                timer.awaitDelay(state.endedAtNanos, Math.min(60_000, state.retryMillis << Math.min(6, failures)));
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /**
     * Reads a request's event stream; if it ends before every request it carries is answered, resumes
     * it the server's retry delay after it ended (counted from when its end was read).
     */
    void readResuming(InputStream body, Set<RequestId> requests) {
        Set<RequestId> open = new HashSet<>(requests);
        Inbound.StreamState state = new Inbound.StreamState(timer);
        InputStream current = body;
        int resumes = 0;
        while (true) {
            inbound.readEvents(current, open, state);
            if (open.isEmpty() || inbound.closed() || state.lastEventId.isEmpty() || resumes >= MAX_RESUMES) {
                if (!open.isEmpty() && !inbound.closed()) {
                    LOG.log(System.Logger.Level.DEBUG, "an event stream ended before its answer");
                }
                return;
            }
            resumes++;
            try {
                timer.awaitDelay(state.endedAtNanos, state.retryMillis);
                HttpResponse<InputStream> resumed = exchanges.stream(Optional.of(state.lastEventId.get()));
                if (resumed.statusCode() != 200) {
                    HttpExchanges.drain(resumed);
                    return;
                }
                current = resumed.body();
            } catch (UnauthorizedException e) {
                return;
            } catch (TransportClosedException e) {
                state.ended(); // the next attempt waits the retry delay from this failure
                LOG.log(System.Logger.Level.DEBUG, "resuming an event stream failed");
            } catch (InterruptedException e) {
                return;
            }
        }
    }
}
