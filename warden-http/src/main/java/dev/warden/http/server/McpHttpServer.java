package dev.warden.http.server;

import dev.warden.core.transport.Transport;
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
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.VirtualThreadPool;

/**
 * Serves MCP over Streamable HTTP at one endpoint ({@code http://127.0.0.1:PORT/mcp} by default).
 * Each client session gets its own {@link Transport}, handed to {@code onSession} (typically
 * {@code mcpServer::connect}). Safe by default: bound to the loopback interface, Host and Origin
 * checked against an allowlist (DNS rebinding), bodies capped, session ids from a secure random
 * source, and every refusal a status code with a JSON-RPC error body that repeats no input.
 *
 * <pre>{@code
 * McpHttpServer http = McpHttpServer.builder().port(8080).onSession(server::connect).build();
 * http.start();
 * }</pre>
 */
public final class McpHttpServer implements AutoCloseable {

    private final Server jetty;
    private final ServerConnector connector;
    private final McpHandler handler;
    private final RequestDeadlines deadlines;
    private final ScheduledExecutorService timers;
    private final String path;
    private final String host;
    private final Duration keepAlive;
    private final AuthGate auth;

    McpHttpServer(McpHttpServerBuilder b) {
        this.path = b.path;
        this.host = b.host;
        this.keepAlive = b.keepAlive;
        this.timers = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "warden-http-timers");
            t.setDaemon(true);
            return t;
        });
        VirtualThreadPool pool = new VirtualThreadPool();
        pool.setName("warden-http");
        this.jetty = new Server(pool);
        HttpConfiguration config = new HttpConfiguration();
        config.setSendServerVersion(false); // no product or version in headers: nothing to fingerprint
        config.setSendXPoweredBy(false);
        config.setRequestHeaderSize(b.maxHeaderBytes); // larger header blocks: 431 before they are buffered
        this.connector = new ServerConnector(jetty, new HttpConnectionFactory(config));
        connector.setHost(b.host);
        connector.setPort(b.port);
        this.deadlines = new RequestDeadlines(b.requestTimeout, b.clock);
        connector.addEventListener(deadlines);
        jetty.addConnector(connector);
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
                b.replicas),
                timers, deadlines);
        jetty.setHandler(handler);
        jetty.setStopTimeout(2000);
    }

    public static McpHttpServerBuilder builder() {
        return new McpHttpServerBuilder();
    }

    /** Starts listening; returns once the port is bound. */
    public McpHttpServer start() throws Exception {
        jetty.start();
        auth.bound(endpoint());
        long every = keepAlive.toMillis();
        timers.scheduleAtFixedRate(handler::tick, every, every, TimeUnit.MILLISECONDS);
        // Late clients are looked for every second, not every keep-alive: a request deadline of 30 s
        // then cuts a slowloris connection after 30-31 s, not up to a keep-alive period later.
        timers.scheduleAtFixedRate(deadlines::sweep, 1, 1, TimeUnit.SECONDS);
        return this;
    }

    /** The bound port (useful with port 0). */
    public int port() {
        return connector.getLocalPort();
    }

    /** The MCP endpoint's URL. */
    public URI endpoint() {
        String h = host.contains(":") ? "[" + host + "]" : host;
        return URI.create("http://" + h + ":" + port() + path);
    }

    /**
     * The canonical URI of this resource, which access tokens must be issued for (RFC 8707): the
     * authenticator's, or the endpoint's URL; empty when the server authenticates nobody.
     */
    public java.util.Optional<URI> resource() {
        return auth.resource();
    }

    /** The sessions open (those idle past the idle timeout are closed first). */
    public int sessionCount() {
        return handler.sessionCount();
    }

    /** What the server has refused or taken away from clients so far, for metrics. */
    public Stats stats() {
        HttpCounters c = handler.counters();
        return new Stats(c.sessionsOpened(), c.sessionsEvicted(), c.sessionsExpired(), c.sessionsRefused(),
                c.streamsCut(), c.notificationsDropped(), c.requestsRefused(), c.sessionsRestored(),
                c.sessionsNotPortable());
    }

    /**
     * Counters since the start.
     *
     * @param sessionsEvicted idle sessions closed to make room at a cap
     * @param sessionsExpired sessions closed after the idle timeout
     * @param sessionsRefused initializes refused: a cap reached and no session idle
     * @param streamsCut      event streams cut because their client stopped reading
     * @param notificationsDropped log and progress notifications dropped for a client that read its
     *                        stream slower than they came (its answers and requests still sent)
     * @param requestsRefused POSTs refused in a session (a duplicate id, too many requests in flight, a batch)
     * @param sessionsRestored sessions another replica opened, restored here from their sealed ids
     * @param sessionsNotPortable sessions given a plain id although portable: their initialize was too large to seal
     */
    public record Stats(long sessionsOpened, long sessionsEvicted, long sessionsExpired, long sessionsRefused,
                        long streamsCut, long notificationsDropped, long requestsRefused, long sessionsRestored,
                        long sessionsNotPortable) {
    }

    public void join() throws InterruptedException {
        jetty.join();
    }

    @Override
    public void close() {
        handler.closeAll();
        try {
            jetty.stop();
        } catch (Exception e) {
            // stopping is best effort; the port is released with the process anyway
        }
        timers.shutdownNow();
    }

    /** Sessions open at once, unless {@link McpHttpServerBuilder#maxSessions} says otherwise. */
    public static final int DEFAULT_MAX_SESSIONS = 10_000;
    /** Sessions open at once from one remote address, unless {@link McpHttpServerBuilder#maxSessions} says otherwise. */
    public static final int DEFAULT_MAX_SESSIONS_PER_ADDRESS = 1_000;
}
