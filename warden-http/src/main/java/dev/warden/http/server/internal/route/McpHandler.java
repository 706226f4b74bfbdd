package dev.warden.http.server.internal.route;

import dev.warden.core.identity.Caller;
import dev.warden.core.jsonrpc.JsonRpcError;
import dev.warden.http.server.internal.replica.LostStreams;
import dev.warden.http.server.internal.replica.RemoteReaders;
import dev.warden.http.server.internal.replica.RemoteStreams;
import dev.warden.http.server.internal.request.AuthGate;
import dev.warden.http.server.internal.request.Headers;
import dev.warden.http.server.internal.request.RefusalSpans;
import dev.warden.http.server.internal.request.Refusals;
import dev.warden.http.server.internal.request.RequestDeadlines;
import dev.warden.http.server.internal.session.HttpCounters;
import dev.warden.http.server.internal.session.HttpSessionTransport;
import dev.warden.http.server.internal.session.Sessions;
import dev.warden.http.server.internal.settings.EndpointSettings;
import dev.warden.http.server.internal.stateless.Stateless;
import dev.warden.http.server.internal.stateless.StatelessExchanges;
import dev.warden.http.server.internal.stream.SseStream;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The MCP endpoint for the session-based versions of Streamable HTTP (2025-03-26 to 2025-11-25),
 * and for the stateless 2026-07-28 requests: the checks every request passes (path, Host, Origin,
 * then who is calling, when the server has an authenticator), then GET (a session's event stream) and DELETE (the end of a session) here, POST in
 * {@link Posts}. Each failure has its own status and a JSON-RPC error body without an id; none of
 * them repeats a header value or any other input back.
 */
public final class McpHandler extends Handler.Abstract {

    private final EndpointSettings settings;
    private final RequestDeadlines deadlines;
    private final HttpCounters counters = new HttpCounters();
    private final Refusals refusals;
    private final Sessions sessions;
    private final StatelessExchanges exchanges;
    private final Posts posts;
    private final Probes probes;
    private final LostStreams lostStreams;
    private final RemoteStreams remoteStreams;
    private final RemoteReaders remoteReaders;

    public McpHandler(EndpointSettings settings, ScheduledExecutorService timers, RequestDeadlines deadlines) {
        this.settings = settings;
        this.deadlines = deadlines;
        this.refusals = new Refusals(settings.boundary(), new RefusalSpans(settings.telemetry()));
        this.sessions = new Sessions(settings, timers, counters, refusals);
        this.exchanges = new StatelessExchanges(settings, counters, refusals);
        this.posts = new Posts(settings, deadlines, counters, refusals, sessions, exchanges);
        this.probes = new Probes(settings.gate());
        this.lostStreams = new LostStreams(settings, timers, refusals);
        this.remoteStreams = new RemoteStreams(settings, timers, refusals, lostStreams);
        this.remoteReaders = new RemoteReaders(settings, sessions.relay()::copy, timers);
    }

    /** The sessions open (those idle past the idle timeout are closed first). */
    public int sessionCount() {
        return sessions.count();
    }

    public HttpCounters counters() {
        return counters;
    }

    /** Called periodically: keep-alive comments on open streams, and idle sessions closed. */
    public void tick() {
        sessions.tick();
        exchanges.tick();
        remoteStreams.tick();
    }

    public void closeAll() {
        remoteStreams.closeAll();
        sessions.closeAll();
    }

    @Override
    public boolean handle(Request request, Response response, Callback whenDone) {
        Callback callback = deadlines.started(request, whenDone);
        if (!"POST".equals(request.getMethod())) {
            deadlines.answering(request); // no body to wait for
        }
        if (probes.serves(request, response, callback)) {
            return true;
        }
        if (settings.auth().servesMetadata(request, response, callback, settings.path())) {
            return true;
        }
        if (!settings.path().equals(Request.getPathInContext(request))) {
            Response.writeError(request, response, callback, 404);
            return true;
        }
        Optional<String> host = Headers.header(request, HttpHeader.HOST.asString())
                .or(() -> Optional.ofNullable(request.getHttpURI().getAuthority()));
        if (!settings.hosts().allows(host, Headers.header(request, "Origin"))) {
            refusals.error(response, callback, 403, JsonRpcError.INVALID_REQUEST,
                    "Forbidden: the Host or Origin header is not allowed for this server");
            return true;
        }
        if (!Set.of("POST", "GET", "DELETE").contains(request.getMethod())) {
            response.getHeaders().put(HttpHeader.ALLOW, "GET, POST, DELETE");
            refusals.error(response, callback, 405, JsonRpcError.INVALID_REQUEST,
                    "Method not allowed: the MCP endpoint takes GET, POST and DELETE");
            return true;
        }
        Optional<AuthGate.Admission> admitted = settings.auth().admit(request, response, callback, refusals);
        if (admitted.isEmpty()) {
            return true;
        }
        Optional<Caller> caller = admitted.get().caller();
        switch (request.getMethod()) {
            case "POST" -> posts.post(request, response, callback, caller);
            case "GET" -> get(request, response, callback, caller);
            default -> delete(request, response, callback, caller);
        }
        return true;
    }

    /** A session's standalone event stream, or the resumption of one of its streams after Last-Event-ID. */
    private void get(Request request, Response response, Callback callback, Optional<Caller> caller) {
        if (Stateless.headerSaysStateless(request)) {
            response.getHeaders().put(HttpHeader.ALLOW, "POST");
            refusals.error(response, callback, 405, JsonRpcError.INVALID_REQUEST,
                    "Method not allowed: this protocol version has no GET stream; use subscriptions/listen");
            return;
        }
        if (!Headers.accepts(Headers.header(request, HttpHeader.ACCEPT.asString()), "text/event-stream")) {
            refusals.error(response, callback, 406, JsonRpcError.INVALID_REQUEST,
                    "Not acceptable: the Accept header must list text/event-stream");
            return;
        }
        if (!Headers.versionValid(request)) {
            refusals.error(response, callback, 400, JsonRpcError.INVALID_REQUEST, Headers.UNSUPPORTED_VERSION);
            return;
        }
        Optional<HttpSessionTransport> transport = sessions.of(request, response, callback, caller);
        if (transport.isEmpty()) {
            return;
        }
        Optional<String> lastEventId = Headers.header(request, "Last-Event-ID");
        if (lastEventId.isPresent()) {
            Optional<SseStream> stream = SseStream.streamOf(lastEventId.get()).flatMap(transport.get()::stream);
            var after = SseStream.sequenceOf(lastEventId.get());
            if (stream.isEmpty() && SseStream.streamOf(lastEventId.get()).filter(id -> remoteStreams.served(id, after,
                    transport.get(), response, callback) || lostStreams.answered(id, response, callback)).isPresent()) {
                return; // another replica's: served from there while it is up, else its requests answered as lost
            }
            if (stream.isEmpty() || after.isEmpty()) {
                refusals.error(response, callback, 400, JsonRpcError.INVALID_REQUEST, LostStreams.NO_STREAM);
                return;
            }
            Headers.sse(response);
            stream.get().attach(response, callback, after.getAsLong(), false, settings.retry().toMillis());
            return;
        }
        Optional<SseStream> standalone = transport.get().openStandalone();
        if (standalone.isEmpty()) {
            refusals.error(response, callback, 409, JsonRpcError.INVALID_REQUEST,
                    "Conflict: this session already has a GET stream open");
            return;
        }
        Headers.sse(response);
        standalone.get().attach(response, callback, 0, transport.get().primes(), settings.retry().toMillis());
    }

    private void delete(Request request, Response response, Callback callback, Optional<Caller> caller) {
        Optional<HttpSessionTransport> transport = sessions.of(request, response, callback, caller);
        if (transport.isEmpty()) {
            return;
        }
        sessions.end(transport.get());
        response.setStatus(200);
        response.write(true, null, callback);
    }
}
