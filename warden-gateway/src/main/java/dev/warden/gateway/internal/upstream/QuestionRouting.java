package dev.warden.gateway.internal.upstream;

import dev.warden.client.McpClient;
import java.util.concurrent.ConcurrentHashMap;

/** The {@link Askers} of each of an upstream's sessions: where each session's questions can go. */
final class QuestionRouting {

    private final UpstreamLink link;
    private final ConcurrentHashMap<McpClient, Askers> bySession = new ConcurrentHashMap<>();

    QuestionRouting(UpstreamLink link) {
        this.link = link;
    }

    /** For a session about to connect (its handlers need them first). */
    Askers fresh() {
        return new Askers(link);
    }

    McpClient registered(McpClient session, Askers its) {
        its.session(session);
        bySession.put(session, its);
        return session;
    }

    /** {@code asker} has a request ({@code method}) in flight on {@code session}, one of this upstream's connections. */
    void enter(McpClient session, Asker asker, String method) {
        bySession.computeIfAbsent(session, s -> new Askers(link)).enter(asker, method);
    }

    void leave(McpClient session, Asker asker, String method) {
        Askers a = bySession.get(session);
        if (a != null) {
            a.leave(asker, method);
        }
    }

    /** Whether a request is in flight on the session. */
    boolean busy(McpClient session) {
        Askers its = bySession.get(session);
        return its != null && its.busy();
    }

    /** A session closed: nobody is asked through it any more. */
    void closed(McpClient session) {
        bySession.remove(session);
    }

    /** A client connection went away: it is no candidate on any session. */
    void gone(Asker connection) {
        bySession.values().forEach(a -> a.forget(connection));
    }
}
