package dev.warden.audit;

import dev.warden.audit.internal.Pacer;
import dev.warden.audit.internal.Probe;
import dev.warden.audit.internal.ProgressWatch;
import dev.warden.audit.internal.TapTransport;
import dev.warden.audit.internal.Wire;
import dev.warden.client.McpClient;
import dev.warden.client.ReconnectPolicy;
import dev.warden.core.error.ConnectionClosedException;
import dev.warden.core.error.PeerErrorException;
import dev.warden.core.error.RequestTimeoutException;
import dev.warden.core.session.OutgoingRequest;
import dev.warden.core.session.RequestOptions;
import dev.warden.core.transport.ProcessTransport;
import dev.warden.core.transport.StderrSink;
import dev.warden.core.transport.Transport;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import tools.jackson.databind.node.ObjectNode;

/**
 * The audit's line to the server: Warden's own client over a tapped transport, so every frame the
 * server sends is seen as it came, raw frames can be written on the same connection, and the
 * server's stderr (stdio) is kept. Every request goes through the pacer (budget, rate) and is bounded
 * by the call timeout; a tools/call carries a progress token, and progress for it extends its
 * deadline up to the maximum call time. The client itself never reconnects: the audit decides when a
 * server that stopped is started again ({@link #relaunch}), so each stop is seen and reported.
 */
final class Line implements AutoCloseable {

    /** What became of a request. */
    sealed interface Outcome {
        /** The server's answer, as it came. */
        record Answered(ObjectNode message, Duration took) implements Outcome {
        }

        /**
         * No answer in time: within the call timeout, or (with {@code progress} notifications
         * extending it) within the maximum call time.
         */
        record TimedOut(int progress, boolean pastTotal) implements Outcome {
            TimedOut() {
                this(0, false);
            }
        }

        /** The connection closed before an answer: the server stopped. */
        record Closed() implements Outcome {
        }

        /** The budget is spent: nothing was sent. */
        record OverBudget() implements Outcome {
        }
    }

    static final int MAX_STDERR_LINES = 2000;
    /** How much longer than the audit's own deadline the session waits before failing a request itself. */
    private static final Duration BACKSTOP = Duration.ofSeconds(5);

    private final Pacer pacer;
    private final Clock clock;
    private final Duration callTimeout;
    private final Duration maxCallTime;
    private final List<String> stderr = new ArrayList<>();
    private volatile Wire wire = new Wire();
    private volatile TapTransport tap;
    /** The server process of the current connection, for its exit status; empty but for stdio. */
    private volatile Optional<ProcessTransport> process = Optional.empty();
    private McpClient client;
    private TransportUsed transport = TransportUsed.STDIO;
    private String refusal = "the transport would not send it";

    Line(Pacer pacer, Clock clock, Duration callTimeout, Duration maxCallTime) {
        this.pacer = pacer;
        this.clock = clock;
        this.callTimeout = callTimeout;
        this.maxCallTime = maxCallTime;
    }

    /**
     * Starts the server again after it stopped: the old connection closed, a fresh process (or
     * connection) and handshake, one request of the budget. False when the budget is spent or the
     * new server does not initialize.
     */
    boolean relaunch(Target target) {
        if (target instanceof Target.Http || !pacer.has(1)) {
            return false;
        }
        close();
        try {
            connect(target);
            return true;
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** The exit status of the server process that stopped, waiting a moment for it; empty but for stdio. */
    Optional<Integer> exitStatus() {
        return process.flatMap(p -> p.exitCode(Duration.ofSeconds(2)));
    }

    /**
     * Connects and initializes (the requests it sends are charged to the budget, at least one): an
     * HTTP target on Streamable HTTP, else on the older HTTP+SSE ({@link HttpConnect}).
     */
    McpClient connect(Target target) {
        return switch (target) {
            case Target.Stdio s -> open(() -> {
                ProcessTransport launched = ProcessTransport.launch(s.command(), Map.of(), Optional.empty(), sink());
                process = Optional.of(launched);
                return launched;
            }, TransportUsed.STDIO);
            case Target.Http h -> HttpConnect.connect(this, h, callTimeout);
            case Target.Connected c -> open(c.connector(), TransportUsed.CONNECTED);
        };
    }

    /**
     * Connects over {@code base}'s transports (one request of the budget taken first, for the rate);
     * whatever else it sent (a stateless probe before initialize) is charged too, whether it worked or not.
     */
    McpClient open(Supplier<Transport> base, TransportUsed used) {
        pacer.take();
        java.util.concurrent.atomic.AtomicReference<TapTransport> made = new java.util.concurrent.atomic.AtomicReference<>();
        try {
            client = McpClient.builder("warden-audit", "0.1.0").requestTimeout(callTimeout)
                    .reconnect(ReconnectPolicy.none()).connect(() -> {
                        Wire fresh = new Wire();
                        TapTransport t = new TapTransport(base.get(), fresh);
                        wire = fresh;
                        tap = t;
                        made.set(t);
                        return t;
                    });
            transport = used;
            return client;
        } finally {
            TapTransport t = made.get();
            pacer.charge(t == null ? 0 : t.requestsSent() - 1);
        }
    }

    /** How the current connection reaches the server. */
    TransportUsed transport() {
        return transport;
    }

    /** Charges {@code requests} sent outside the client (a plain POST) to the budget. */
    void charge(int requests) {
        pacer.charge(requests);
    }

    McpClient client() {
        return client;
    }

    /**
     * One page of a listing (the caller took it from the budget), given the maximum call time rather
     * than the call timeout: a large server's page is megabytes, made and parsed on a busy machine.
     *
     * @throws RuntimeException when it fails or is not answered in time (its cause's, when it has one)
     */
    tools.jackson.databind.JsonNode page(String method, ObjectNode params) {
        OutgoingRequest request = client.requestAsync(method, params, RequestOptions.ofDefaults().withTimeout(maxCallTime));
        try {
            return request.get(maxCallTime.plus(BACKSTOP).toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } catch (TimeoutException e) {
            request.cancel("warden audit: no answer within the maximum call time");
            throw new IllegalStateException("no answer within " + maxCallTime.toMillis() + " ms", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    Wire wire() {
        return wire;
    }

    /** Sends {@code probe} and waits for its answer, at most the call timeout. */
    Outcome call(Probe probe) {
        return call(probe.method(), probe.params());
    }

    /**
     * Sends a request and waits for its answer. A tools/call carries a progress token: each progress
     * notification for it restarts the call timeout, up to the maximum call time. The session's own
     * timeout is only a backstop past that; the deadline that counts is the audit's clock's.
     */
    Outcome call(String method, ObjectNode params) {
        if (!pacer.take()) {
            return new Outcome.OverBudget();
        }
        Instant start = clock.instant();
        ProgressWatch watch = new ProgressWatch(clock, start, callTimeout,
                "tools/call".equals(method) ? maxCallTime : callTimeout);
        RequestOptions options = RequestOptions.ofDefaults().withTimeout(maxCallTime.plus(BACKSTOP));
        if ("tools/call".equals(method)) {
            options = options.withProgress(p -> watch.progressed());
        }
        OutgoingRequest request;
        try {
            request = client.requestAsync(method, params, options);
        } catch (RuntimeException e) {
            return new Outcome.Closed();
        }
        return await(request, start, watch);
    }

    /** Waits for the answer, waking on each progress, until the watch says the call is late. */
    private Outcome await(OutgoingRequest request, Instant start, ProgressWatch watch) {
        while (true) {
            // The next progress first, then the time left: progress that arrives between the two
            // wakes the wait below instead of being missed.
            CompletableFuture<Void> progress = watch.nextProgress();
            Duration left = watch.left();
            if (left.isNegative() || left.isZero()) {
                request.cancel("warden audit: no answer within the call timeout");
                return new Outcome.TimedOut(watch.progressCount(), watch.pastTotal());
            }
            if (request.isDone()) {
                return await(request, start);
            }
            try {
                CompletableFuture.anyOf(request, progress).get(left.toMillis() + 1, TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                if (progress.isDone() || request.isDone()) {
                    continue; // it came just as the wait ran out
                }
                // Neither an answer nor progress in the time left: the call is late whatever the clock says.
                request.cancel("warden audit: no answer within the call timeout");
                return new Outcome.TimedOut(watch.progressCount(), watch.pastTotal());
            } catch (ExecutionException e) {
                return await(request, start);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                request.cancel("warden audit: interrupted");
                return new Outcome.TimedOut();
            }
        }
    }

    /** Starts a call without waiting (the one the cancellation probe cancels); empty over budget. */
    Optional<OutgoingRequest> start(Probe probe) {
        if (!pacer.take()) {
            return Optional.empty();
        }
        try {
            return Optional.of(client.requestAsync(probe.method(), probe.params(),
                    RequestOptions.ofDefaults().withTimeout(callTimeout)));
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    Outcome await(OutgoingRequest request, Instant start) {
        String key = Wire.idKey(request.id().toJson());
        Wire current = wire;
        try {
            request.get(callTimeout.toMillis() + 1000, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RequestTimeoutException) {
                return new Outcome.TimedOut();
            }
            if (!(e.getCause() instanceof PeerErrorException) && current.answered(key).isEmpty()) {
                return e.getCause() instanceof ConnectionClosedException || current.isClosed()
                        ? new Outcome.Closed() : new Outcome.TimedOut();
            }
        } catch (TimeoutException e) {
            request.cancel("warden audit: no answer within the call timeout");
            return new Outcome.TimedOut();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Outcome.TimedOut();
        }
        Optional<ObjectNode> message = current.answered(key);
        current.forget(key); // read once: five hundred answers of 64 KiB echoes need not stay
        return message.<Outcome>map(m -> new Outcome.Answered(m, Duration.between(start, clock.instant())))
                .orElseGet(Outcome.TimedOut::new);
    }

    /**
     * Whether the server still answers, asked with a ping within the call timeout (one request of the
     * budget): any answer counts, an error too (a stateless version has no ping).
     */
    Optional<Boolean> ping() {
        Outcome outcome = call("ping", dev.warden.core.json.Json.object());
        return outcome instanceof Outcome.OverBudget ? Optional.empty()
                : Optional.of(outcome instanceof Outcome.Answered);
    }

    /** Takes a request from the budget for a frame written raw; false when it is spent. */
    boolean pacerTake() {
        return pacer.take();
    }

    /** Writes a frame as it is; false when the transport refused it or is closed ({@link #refusal()} says which). */
    boolean sendRaw(String frame) {
        try {
            tap.sendRaw(frame);
            return true;
        } catch (RuntimeException e) {
            // Over HTTP+SSE a POST the server refuses (a 400 for a frame it cannot read) is its answer
            // to that frame; the transport's message is its own words (the status), never the server's text.
            refusal = transport == TransportUsed.HTTP_SSE && e instanceof dev.warden.core.transport.TransportClosedException
                    && e.getMessage() != null ? e.getMessage() : "the transport would not send it";
            return false;
        }
    }

    /** Why the last raw frame was not sent. */
    String refusal() {
        return refusal;
    }

    boolean stopped() {
        return wire.isClosed();
    }

    synchronized List<String> stderr() {
        return List.copyOf(stderr);
    }

    private StderrSink sink() {
        return line -> {
            synchronized (this) {
                if (stderr.size() < MAX_STDERR_LINES) {
                    stderr.add(line);
                }
            }
        };
    }

    @Override
    public void close() {
        if (client != null) {
            client.close();
        }
    }
}
