package dev.warden.core.session;

import dev.warden.core.jsonrpc.JsonRpcMessage;
import java.util.Optional;
import java.util.concurrent.Callable;
import tools.jackson.databind.JsonNode;

/**
 * Watches a session's traffic from outside the protocol (tracing, in warden-telemetry): a message
 * from the peer before it is handled, its handler's work, and the answer exactly as it went out;
 * a request of ours before it is written (it may gain a trace context in {@code params._meta})
 * and how it ended. It never changes an answer. Calls are quick; the session logs what they throw.
 */
public interface SessionObserver {

    SessionObserver NONE = new SessionObserver() {
    };

    /** A request or notification from the peer, before anything handles it. */
    default Incoming received(JsonRpcMessage message) {
        return Incoming.NONE;
    }

    /** A request of ours about to be written: the request to write instead, and what hears how it ended. */
    default Outgoing sending(JsonRpcMessage.Request request) {
        return new Outgoing(request, Ended.NONE);
    }

    /** A notification of ours about to be written: the notification to write instead. */
    default JsonRpcMessage.Notification notifying(JsonRpcMessage.Notification notification) {
        return notification;
    }

    /** One message from the peer being handled. */
    interface Incoming {

        Incoming NONE = new Incoming() {
            @Override
            public <T> T during(Callable<T> work) throws Exception {
                return work.call();
            }

            @Override
            public void ended(Optional<JsonRpcMessage.Response> answer) {
            }
        };

        /**
         * Runs the handler's work within this observation (its span current, say), on the handler's
         * thread: a request's handler, or a notification's.
         */
        <T> T during(Callable<T> work) throws Exception;

        /**
         * Once: the answer as it goes to the peer, or empty when none goes (a notification, once
         * handled, dropped or ignored; a request the peer cancelled, or whose session closed first).
         */
        void ended(Optional<JsonRpcMessage.Response> answer);

        /**
         * Once, in place of {@link #ended}: the session closed before the request was answered, so
         * no answer goes (told apart from the peer's own cancellation). Later calls do nothing.
         */
        default void closed() {
            ended(Optional.empty());
        }
    }

    /** The request to write, and what is told, once, how it ended. */
    record Outgoing(JsonRpcMessage.Request request, Ended ended) {
        public Outgoing {
            java.util.Objects.requireNonNull(request, "request");
            java.util.Objects.requireNonNull(ended, "ended");
        }
    }

    /**
     * How a request of ours ended, told once, by the thread whose completion won, before anyone
     * waiting on it moves on.
     */
    interface Ended {

        Ended NONE = new Ended() {
            @Override
            public void answered(JsonNode result) {
            }

            @Override
            public void failed(Throwable failure) {
            }
        };

        /** The peer's result. */
        void answered(JsonNode result);

        /**
         * The failure it completed with: {@link dev.warden.core.error.PeerErrorException} for the
         * peer's error, a {@link dev.warden.core.error.LocalFailure} for no answer.
         */
        void failed(Throwable failure);
    }
}
