package dev.warden.core.session;

import dev.warden.core.error.ProtocolException;
import dev.warden.core.jsonrpc.Decoded;
import dev.warden.core.jsonrpc.FrameHints;
import dev.warden.core.jsonrpc.JsonRpcCodec;
import dev.warden.core.jsonrpc.JsonRpcMessage;
import dev.warden.core.jsonrpc.RequestId;
import dev.warden.core.mcp.Cancellation;
import dev.warden.core.mcp.Progress;
import dev.warden.core.transport.Transport;
import dev.warden.core.transport.TransportClosedException;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * What the transport delivers, read in order on its thread: each frame decoded and routed, a
 * request to {@link IncomingRequests}, an answer to {@link PendingRequests}, a notification to the
 * cancellation, the progress or the {@link NotificationQueue} it is for, a batch to {@link Batches}.
 * Frames that are no message are answered with the codec's refusal where one may be sent.
 */
final class Inbox implements Transport.Listener {

    private static final System.Logger LOG = System.getLogger(Session.class.getName());

    private final Session session;
    private final IncomingRequests incoming;
    private final PendingRequests pending;
    private final NotificationQueue notifications;
    private final Answers answers;
    private final Outbox outbox;
    private final Unanswered unanswered;
    private final Batches batches;
    private final SessionObserver observer;

    Inbox(Session session, IncomingRequests incoming, PendingRequests pending, NotificationQueue notifications,
            Answers answers, Outbox outbox, Unanswered unanswered, SessionObserver observer) {
        this.observer = observer;
        this.session = session;
        this.incoming = incoming;
        this.pending = pending;
        this.notifications = notifications;
        this.answers = answers;
        this.outbox = outbox;
        this.unanswered = unanswered;
        this.batches = new Batches(this::dispatch, answers, outbox, unanswered);
    }

    /** Whether the negotiated protocol version allows JSON-RPC batches. */
    void allowBatches(boolean allowed) {
        batches.allow(allowed);
    }

    @Override
    public void onFrame(byte[] frame) {
        try {
            Decoded decoded = JsonRpcCodec.decode(frame);
            if (decoded instanceof Decoded.Invalid && failAnswered(frame)) {
                return;
            }
            receive(decoded);
        } catch (Throwable t) {
            // Whatever failed on the reader (an OutOfMemoryError, a listener's bug), the session
            // must not live on deaf: it closes, and everything waiting on it gets its answer.
            LOG.log(System.Logger.Level.ERROR, "the session failed reading a message; closing it", t);
            session.close();
        }
    }

    @Override
    public void onFrameError(ProtocolException refusal) {
        outbox.reply(answers.refusal(Optional.empty(), Session.FRAME, refusal, "the transport could not deliver a frame"));
    }

    /**
     * An oversized response fails the request it answers at once; an oversized request is
     * answered with its own id when that could be read, else with a null id.
     */
    @Override
    public void onOversizedFrame(FrameHints hints, ProtocolException refusal) {
        Optional<RequestId> id = hints.id();
        if (id.isPresent() && !hints.hasMethod()) {
            pending.oversizedAnswer(id.get());
            return;
        }
        outbox.reply(answers.refusal(id.filter(i -> hints.hasMethod()), Session.FRAME, refusal, "oversized frame"));
    }

    @Override
    public void onInputEnded() {
        session.drainThenClose();
    }

    @Override
    public void onSendFailed(RequestId request, TransportClosedException cause) {
        pending.sendFailed(request, cause);
    }

    @Override
    public void onClose() {
        session.shutdown();
    }

    /**
     * A frame that is no valid message (not UTF-8, not JSON) but reads as the answer to a request of
     * ours (an {@code id} and no {@code method} at its edges): that request fails now, as the peer's
     * parse error, rather than waiting out its timeout. Nothing is sent back for an answer.
     */
    private boolean failAnswered(byte[] frame) {
        FrameHints hints = FrameHints.of(Arrays.copyOf(frame, Math.min(frame.length, FrameHints.EDGE)),
                Arrays.copyOfRange(frame, Math.max(0, frame.length - FrameHints.EDGE), frame.length));
        if (hints.hasMethod() || hints.id().isEmpty()) {
            return false;
        }
        return pending.unreadableAnswer(hints.id().get());
    }

    private void receive(Decoded decoded) {
        switch (decoded) {
            case Decoded.Message m -> {
                unanswered.add();
                dispatch(m.message()).whenComplete((reply, error) -> {
                    if (reply != null) {
                        reply.ifPresent(outbox::reply);
                    }
                    if (m.message() instanceof JsonRpcMessage.Request request) {
                        outbox.requestEnded(request.id());
                    }
                    unanswered.answered();
                });
            }
            case Decoded.Invalid invalid -> {
                LOG.log(System.Logger.Level.DEBUG, "invalid frame: {0}", invalid.reason());
                answers.refusal(invalid).ifPresent(outbox::reply);
            }
            case Decoded.Batch batch -> batches.receive(batch);
        }
    }

    /** Handles one message, observed; the future holds the reply to send, if any. */
    private CompletableFuture<Optional<JsonRpcMessage>> dispatch(JsonRpcMessage message) {
        if (observer == SessionObserver.NONE || message instanceof JsonRpcMessage.Response) {
            return dispatch(message, SessionObserver.Incoming.NONE);
        }
        SessionObserver.Incoming watch = received(message);
        if (message instanceof JsonRpcMessage.Notification) {
            return dispatch(message, watch); // ended where it is handled (the queue), dropped or ignored
        }
        return dispatch(message, watch).whenComplete((reply, error) -> watch.ended(reply == null ? Optional.empty()
                : reply.filter(JsonRpcMessage.Response.class::isInstance).map(JsonRpcMessage.Response.class::cast)));
    }

    /** The observer's watch over {@code message}; what it throws is logged, never the session's failure. */
    private SessionObserver.Incoming received(JsonRpcMessage message) {
        SessionObserver.Incoming watch;
        try {
            watch = observer.received(message);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "the session observer failed; the message goes unobserved", e);
            return SessionObserver.Incoming.NONE;
        }
        return new SessionObserver.Incoming() {
            @Override
            public <T> T during(java.util.concurrent.Callable<T> work) throws Exception {
                return watch.during(work);
            }

            @Override
            public void ended(Optional<JsonRpcMessage.Response> answer) {
                try {
                    watch.ended(answer);
                } catch (RuntimeException e) {
                    LOG.log(System.Logger.Level.WARNING, "the session observer failed at an answer", e);
                }
            }

            @Override
            public void closed() {
                try {
                    watch.closed();
                } catch (RuntimeException e) {
                    LOG.log(System.Logger.Level.WARNING, "the session observer failed at a close", e);
                }
            }
        };
    }

    private CompletableFuture<Optional<JsonRpcMessage>> dispatch(JsonRpcMessage message,
            SessionObserver.Incoming watch) {
        return switch (message) {
            case JsonRpcMessage.Request request -> incoming.handle(request, watch);
            case JsonRpcMessage.Notification notification -> {
                switch (notification.method()) {
                    case Cancellation.NOTIFICATION -> {
                        notification.params().map(p -> p.get("requestId")).flatMap(RequestId::fromJson)
                                .ifPresent(incoming::cancel);
                        watch.ended(Optional.empty());
                    }
                    case Progress.NOTIFICATION -> {
                        pending.progress(notification.params());
                        watch.ended(Optional.empty());
                    }
                    default -> notifications.offer(notification, watch);
                }
                yield CompletableFuture.completedFuture(Optional.empty());
            }
            case JsonRpcMessage.Response response -> {
                pending.answer(response);
                yield CompletableFuture.completedFuture(Optional.empty());
            }
        };
    }
}
