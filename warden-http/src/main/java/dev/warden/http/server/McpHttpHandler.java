package dev.warden.http.server;

import dev.warden.http.server.internal.request.AuthGate;
import dev.warden.http.server.internal.request.Gate;
import dev.warden.http.server.internal.request.RequestDeadlines;
import dev.warden.http.server.internal.route.McpHandler;
import dev.warden.http.server.internal.seal.SessionSeal;
import dev.warden.http.server.internal.session.HttpCounters;
import dev.warden.http.server.internal.settings.ClientLimits;
import dev.warden.http.server.internal.settings.EndpointSettings;
import dev.warden.http.server.internal.settings.ResumeWindow;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Handler;

/**
 * The MCP endpoint as a Jetty {@link Handler}, for a Jetty {@code Server} someone else owns (an
 * application's embedded Jetty 12.1): {@link McpHttpServer} is this handler on a server of its own.
 * Whoever owns the server {@linkplain #attach attaches} each of its connectors (so that slow clients
 * meet the request deadline), routes every path the endpoint {@linkplain #serves serves} to
 * {@link #handler()}, and
 * {@linkplain #start starts} it once the server is bound. Built by {@link McpHttpServerBuilder#buildHandler()};
 * the builder's host and port are not used.
 */
public final class McpHttpHandler implements AutoCloseable {

    private final McpHandler handler;
    private final RequestDeadlines deadlines;
    private final ScheduledExecutorService timers;
    private final Duration keepAlive;
    private final AuthGate auth;
    private final String path;

    McpHttpHandler(McpHttpServerBuilder b) {
        this.path = b.path;
        this.keepAlive = b.keepAlive;
        this.timers = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "warden-http-timers");
            t.setDaemon(true);
            return t;
        });
        this.deadlines = new RequestDeadlines(b.requestTimeout, b.clock);
        Set<String> hosts = b.allowedHosts.isEmpty() ? HostPolicy.loopback().hosts() : b.allowedHosts;
        ClientLimits limits = new ClientLimits(b.maxSessions, b.maxSessionsPerAddress, b.maxPendingRequests,
                b.streamBufferEvents, b.streamBufferBytes, b.retainedBytesPerSession);
        this.auth = new AuthGate(b.authenticator);
        ResumeWindow resumeWindow = b.resumeTimer.map(timer -> new ResumeWindow(b.resumeWindow, timer))
                .orElseGet(() -> ResumeWindow.on(b.resumeWindow, timers));
        this.handler = new McpHandler(new EndpointSettings(b.path, new HostPolicy(hosts, b.allowedOrigins)::allows,
                b.maxBodyBytes, b.retry, resumeWindow, b.sessionIdleTimeout, b.onSession, b.boundary, limits, b.clock,
                auth, new Gate(b.admission::enter, b.admission::exit, b.admission::unready),
                b.sessionKeys.map(keys -> new SessionSeal("mcp-session", keys.keys(), b.sessionMaxAge, b.clock)),
                b.replicas, b.telemetry),
                timers, deadlines);
    }

    /** The handler to route the endpoint's requests to. */
    public Handler handler() {
        return handler;
    }

    /** The endpoint's path. */
    public String path() {
        return path;
    }

    /**
     * Whether a request for {@code path} is this endpoint's: its own path, or its OAuth
     * protected-resource metadata when it authenticates (a router in front of other handlers asks).
     */
    public boolean serves(String path) {
        return path.equals(this.path) || auth.isMetadataPath(path, this.path);
    }

    /** Times the requests of this connector's connections (the request deadline); call before the server starts. */
    public void attach(Connector connector) {
        connector.addEventListener(deadlines);
    }

    /** Starts the keep-alive and deadline timers, once the server is bound at {@code endpoint}. */
    public void start(URI endpoint) {
        auth.bound(endpoint);
        long every = keepAlive.toMillis();
        timers.scheduleAtFixedRate(handler::tick, every, every, TimeUnit.MILLISECONDS);
        // Late clients are looked for every second, not every keep-alive: a request deadline of 30 s
        // then cuts a slowloris connection after 30-31 s, not up to a keep-alive period later.
        timers.scheduleAtFixedRate(deadlines::sweep, 1, 1, TimeUnit.SECONDS);
    }

    /** The canonical URI of this resource (RFC 8707); empty when the endpoint authenticates nobody. */
    public Optional<URI> resource() {
        return auth.resource();
    }

    /** The sessions open (those idle past the idle timeout are closed first). */
    public int sessionCount() {
        return handler.sessionCount();
    }

    /** What the endpoint has refused or taken away from clients so far, for metrics. */
    public McpHttpServer.Stats stats() {
        HttpCounters c = handler.counters();
        return new McpHttpServer.Stats(c.sessionsOpened(), c.sessionsEvicted(), c.sessionsExpired(),
                c.sessionsRefused(), c.streamsCut(), c.notificationsDropped(), c.requestsRefused(),
                c.sessionsRestored(), c.sessionsNotPortable());
    }

    /** Closes every session; the server's owner stops the server. */
    void closeSessions() {
        handler.closeAll();
    }

    /** Closes every session and stops the timers. */
    @Override
    public void close() {
        handler.closeAll();
        timers.shutdownNow();
    }
}
