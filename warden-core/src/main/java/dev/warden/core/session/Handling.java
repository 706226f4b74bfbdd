package dev.warden.core.session;

import dev.warden.core.jsonrpc.RequestId;
import dev.warden.core.transport.Route;
import java.util.function.Supplier;

/**
 * The request a thread is answering, so what its handler sends (a notification, a request of its
 * own) goes on that request's stream, which the peer is sure to be reading. Kept per session: a
 * handler of one session sending on another sends unrelated.
 */
record Handling(Session session, RequestId request) {

    private static final ThreadLocal<Handling> CURRENT = new ThreadLocal<>();

    /** Where a message {@code session} sends now goes: on the request this thread answers for it, else unrelated. */
    static Route routeFor(Session session) {
        Handling handling = CURRENT.get();
        return handling != null && handling.session() == session ? Route.during(handling.request()) : Route.UNRELATED;
    }

    /** Marks this thread, a handler's own, as answering {@code request} for the rest of its life. */
    static void enter(Session session, RequestId request) {
        CURRENT.set(new Handling(session, request));
    }

    /** Runs {@code work} as the answer to {@code request} on a thread that goes on to other work (the reader's). */
    static <T> T during(Session session, RequestId request, Supplier<T> work) {
        Handling outer = CURRENT.get();
        CURRENT.set(new Handling(session, request));
        try {
            return work.get();
        } finally {
            CURRENT.set(outer);
        }
    }
}
