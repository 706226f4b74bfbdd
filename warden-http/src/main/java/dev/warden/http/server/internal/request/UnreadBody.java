package dev.warden.http.server.internal.request;

import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpHeaderValue;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * What a refusal does with the body it has not read, so that its client knows whether to send its
 * next request on the same connection. A refusal answered at once (a foreign Host, a missing token)
 * used to find the body still on its way when it completed: Jetty then closed the kept-alive
 * connection without {@code Connection: close} (the answer was written already), and the client's
 * next POST, sent on that connection, failed with no answer (clients do not resend a POST).
 *
 * <p>A small POST body is read and dropped first, so the connection stays usable; any other unread
 * body goes through Jetty's {@link Request#consumeAvailable()}, which drops what has arrived and,
 * if more is to come, makes the answer say {@code Connection: close} (RFC 9112 section 9.6).
 */
final class UnreadBody {

    /**
     * A refused POST declaring at most this is read (counted, not kept) before its answer. Larger,
     * streamed or awaiting {@code 100 Continue}: a stranger's body costs nothing but the refusal.
     */
    static final int DROPPED_BYTES = 64 * 1024;

    private UnreadBody() {
    }

    /**
     * Runs {@code answer} once the body is dropped or the connection marked to close. A body that
     * fails on its way (the client stalls past the idle timeout, say) still gets the refusal, with
     * {@code Connection: close}: the refusal was decided, so it is recorded and answered once.
     */
    static void thenAnswer(Response response, Callback callback, Runnable answer) {
        Request request = response.getRequest();
        long declared = request.getLength();
        if (!"POST".equals(request.getMethod()) || declared <= 0 || declared > DROPPED_BYTES
                || request.getHeaders().contains(HttpHeader.EXPECT, HttpHeaderValue.CONTINUE.asString())) {
            request.consumeAvailable();
            answer.run();
            return;
        }
        // A cap of 0 keeps nothing: the body is counted as it comes (the request deadline still runs).
        BodyReader.read(request, 0, outcome -> {
            boolean broken = switch (outcome) {
                case BodyReader.Outcome.Read read -> false;
                case BodyReader.Outcome.TooLarge dropped -> false;
                case BodyReader.Outcome.Failed failed -> true;
            };
            if (broken) {
                request.consumeAvailable(); // the connection cannot be kept: the answer says so
            }
            // Run from Jetty's demand callback, which only logs what it throws: failed, as a handler's.
            try {
                answer.run();
            } catch (RuntimeException | Error e) {
                callback.failed(e);
            }
        });
    }
}
