package dev.warden.http.server;

import dev.warden.core.transport.Transport;
import dev.warden.core.identity.Authenticator;
import dev.warden.http.server.internal.AuthGate;
import dev.warden.http.server.internal.ClientLimits;
import dev.warden.http.server.internal.EndpointSettings;
import dev.warden.http.server.internal.Gate;
import dev.warden.http.server.internal.HttpCounters;
import dev.warden.http.server.internal.McpHandler;
import dev.warden.http.server.internal.RequestDeadlines;
import dev.warden.http.server.internal.SessionSeal;
import java.net.URI;
import java.time.Duration;
import java.time.InstantSource;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
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

    private McpHttpServer(Builder b) {
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
        this.handler = new McpHandler(new EndpointSettings(b.path, new HostPolicy(hosts, b.allowedOrigins)::allows,
                b.maxBodyBytes, b.retry, b.resumeWindow, b.sessionIdleTimeout, b.onSession, b.boundary, limits, b.clock,
                auth, new Gate(b.admission::enter, b.admission::exit, b.admission::unready),
                b.sessionKeys.map(keys -> new SessionSeal("mcp-session", keys.keys(), b.sessionMaxAge, b.clock)),
                b.replicas),
                timers, deadlines);
        jetty.setHandler(handler);
        jetty.setStopTimeout(2000);
    }

    public static Builder builder() {
        return new Builder();
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

    /** Sessions open at once, unless {@link Builder#maxSessions} says otherwise. */
    public static final int DEFAULT_MAX_SESSIONS = 10_000;
    /** Sessions open at once from one remote address, unless {@link Builder#maxSessions} says otherwise. */
    public static final int DEFAULT_MAX_SESSIONS_PER_ADDRESS = 1_000;

    public static final class Builder {
        private String host = "127.0.0.1";
        private int port = 0;
        private String path = "/mcp";
        private final Set<String> allowedHosts = new LinkedHashSet<>();
        private int maxBodyBytes = 4 * 1024 * 1024;
        private Duration retry = Duration.ofSeconds(1);
        private Duration resumeWindow = Duration.ofSeconds(60);
        private Duration sessionIdleTimeout = Duration.ofMinutes(10);
        private int maxSessions = DEFAULT_MAX_SESSIONS;
        private int maxSessionsPerAddress = DEFAULT_MAX_SESSIONS_PER_ADDRESS;
        private int maxPendingRequests = 1_000;
        private int streamBufferEvents = 1024;
        private long streamBufferBytes = 8L * 1024 * 1024;
        private long retainedBytesPerSession = 16L * 1024 * 1024;
        private int maxHeaderBytes = 16 * 1024;
        private Duration requestTimeout = Duration.ofSeconds(30);
        private InstantSource clock = InstantSource.system();
        private final Set<String> allowedOrigins = new LinkedHashSet<>();
        private Duration keepAlive = Duration.ofSeconds(15);
        private Consumer<Transport> onSession;
        private dev.warden.core.incident.ErrorBoundary boundary = dev.warden.core.incident.ErrorBoundary.ofDefaults();
        private java.util.Optional<Authenticator> authenticator = java.util.Optional.empty();
        private boolean insecureNoAuth;
        private Admission admission = Admission.always();
        private java.util.Optional<SessionKeys> sessionKeys = java.util.Optional.empty();
        private dev.warden.core.cluster.ReplicaBus replicas = dev.warden.core.cluster.ReplicaBus.none();
        private Duration sessionMaxAge = Duration.ofHours(24);

        private Builder() {
        }

        /** The interface to bind; 127.0.0.1 by default. Binding elsewhere needs {@link #allowedHosts}. */
        public Builder host(String host) {
            this.host = Objects.requireNonNull(host, "host");
            return this;
        }

        public Builder port(int port) {
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("port must be between 0 and 65535, got " + port);
            }
            this.port = port;
            return this;
        }

        public Builder path(String path) {
            if (path == null || !path.startsWith("/")) {
                throw new IllegalArgumentException("path must start with '/', got " + path);
            }
            this.path = path;
            return this;
        }

        /**
         * Host names (without port) that Host and Origin headers may carry. Default: localhost,
         * 127.0.0.1 and [::1], which is right for a server bound to loopback.
         */
        public Builder allowedHosts(Set<String> hosts) {
            allowedHosts.clear();
            for (String h : hosts) {
                if (h == null || h.isBlank() || h.contains("/")) {
                    throw new IllegalArgumentException("allowedHosts must hold host names, got " + h);
                }
                allowedHosts.add(h);
            }
            return this;
        }

        public Builder maxBodyBytes(int max) {
            if (max < 1024) {
                throw new IllegalArgumentException("maxBodyBytes must be at least 1024, got " + max);
            }
            this.maxBodyBytes = max;
            return this;
        }

        /** The reconnection delay the priming event asks clients to wait. */
        public Builder retry(Duration retry) {
            this.retry = positive(retry, "retry");
            return this;
        }

        /**
         * How long a response stream whose connection broke waits for the client to resume it before
         * its requests are cancelled.
         */
        public Builder resumeWindow(Duration window) {
            this.resumeWindow = positive(window, "resumeWindow");
            return this;
        }

        /**
         * How often open streams get a keep-alive comment. The write is also how a connection the
         * client dropped is noticed (and, after the resume window, its request cancelled).
         */
        public Builder keepAlive(Duration interval) {
            this.keepAlive = positive(interval, "keepAlive");
            return this;
        }

        /**
         * How long a session with no request in flight and no stream open is kept (10 minutes by
         * default); then it is closed and its id answers 404.
         */
        public Builder sessionIdleTimeout(Duration timeout) {
            this.sessionIdleTimeout = positive(timeout, "sessionIdleTimeout");
            return this;
        }

        /**
         * The most sessions open at once (10,000 by default), and from one remote address (1,000).
         * At a cap the session idle for longest is closed to make room; when none is idle, the
         * initialize is refused with 503.
         */
        public Builder maxSessions(int total, int perAddress) {
            if (total < 1 || perAddress < 1) {
                throw new IllegalArgumentException("maxSessions must be positive, got " + total + " and " + perAddress);
            }
            this.maxSessions = total;
            this.maxSessionsPerAddress = perAddress;
            return this;
        }

        /** The most requests in flight in one session (1,000 by default); past it a POST is refused with 429. */
        public Builder maxPendingRequests(int max) {
            if (max < 1) {
                throw new IllegalArgumentException("maxPendingRequests must be positive, got " + max);
            }
            this.maxPendingRequests = max;
            return this;
        }

        /**
         * What one event stream may hold for a client that reads slower than the server sends (1,024
         * events or 8 MiB by default), so the sender, which may serve other clients too, never waits:
         * log and progress notifications about a request are dropped once half of it is taken; past
         * it, or when the client does not read at all (as many of those notifications dropped, and as
         * many bytes, while nothing could be written), the stream is cut and its requests cancelled.
         * The same bounds apply to the events a stream keeps for resumption.
         */
        public Builder streamBuffer(int maxEvents, long maxBytes) {
            if (maxEvents < 1 || maxBytes < 1024) {
                throw new IllegalArgumentException("streamBuffer needs at least 1 event and 1024 bytes");
            }
            this.streamBufferEvents = maxEvents;
            this.streamBufferBytes = maxBytes;
            return this;
        }

        /** What all the streams of one session keep for resumption, in bytes (16 MiB by default). */
        public Builder retainedBytesPerSession(long max) {
            if (max < 1024) {
                throw new IllegalArgumentException("retainedBytesPerSession must be at least 1024, got " + max);
            }
            this.retainedBytesPerSession = max;
            return this;
        }

        /** The largest request header block (16 KiB by default); larger ones are refused with 431. */
        public Builder maxHeaderBytes(int max) {
            if (max < 1024) {
                throw new IllegalArgumentException("maxHeaderBytes must be at least 1024, got " + max);
            }
            this.maxHeaderBytes = max;
            return this;
        }

        /**
         * How long a client has to send a whole request, headers and body (30 s by default), and how
         * long a connection may wait for its next one: a client trickling bytes is cut off.
         */
        public Builder requestTimeout(Duration timeout) {
            this.requestTimeout = positive(timeout, "requestTimeout");
            return this;
        }

        /** The clock of idle expiry and request deadlines (tests inject one). */
        public Builder clock(InstantSource clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /**
         * Origins ({@code scheme://host[:port]}) accepted besides the server's own, such as a
         * browser-based inspector served from another local port. None by default: a page from
         * another origin, another port of localhost included, is refused with 403.
         */
        public Builder allowedOrigins(Set<String> origins) {
            allowedOrigins.clear();
            for (String o : origins) {
                boolean web = o != null && (o.startsWith("http://") || o.startsWith("https://"));
                String authority = web ? o.substring(o.indexOf("://") + 3) : "";
                if (authority.endsWith("/")) {
                    authority = authority.substring(0, authority.length() - 1);
                }
                if (authority.isEmpty() || authority.contains("/")) {
                    throw new IllegalArgumentException("allowedOrigins must hold origins such as "
                            + "http://localhost:6274, got " + o);
                }
                allowedOrigins.add(o);
            }
            return this;
        }

        /**
         * Where the refs of refusals made before a request reaches a session (a bad Host header,
         * an unknown session) are recorded: the server's or gateway's own boundary, so that
         * those refs resolve in its incident store. Default: a boundary recording to stderr.
         */
        public Builder boundary(dev.warden.core.incident.ErrorBoundary boundary) {
            this.boundary = Objects.requireNonNull(boundary, "boundary");
            return this;
        }

        /**
         * Who may call: every request to the endpoint (POST, GET, DELETE) must carry credentials
         * the authenticator admits (an OAuth 2.1 access token, an API key), or it is refused with
         * 401 and a challenge pointing to this resource's RFC 9728 metadata, which the server then
         * serves at {@code /.well-known/oauth-protected-resource}. Sessions belong to the caller
         * that opened them. None by default, which only a loopback server may go without.
         */
        public Builder authenticator(Authenticator authenticator) {
            this.authenticator = java.util.Optional.of(Objects.requireNonNull(authenticator, "authenticator"));
            return this;
        }

        /**
         * Serve a host that is not loopback without an authenticator, to anyone who can reach it.
         * Only for a network where something else in front authenticates.
         */
        public Builder insecureNoAuth() {
            this.insecureNoAuth = true;
            return this;
        }

        /**
         * Whether a new request may start (a draining gateway refuses it with 503 and
         * {@code Retry-After}), and what {@code GET /readyz} answers. The server also answers
         * {@code GET /livez} and {@code GET /readyz} without credentials and whatever the Host
         * header: a load balancer's checks carry neither; they tell only up and ready.
         * Default: {@link Admission#always()}.
         */
        public Builder admission(Admission admission) {
            this.admission = Objects.requireNonNull(admission, "admission");
            return this;
        }

        /**
         * Sessions any replica holding the same keys can serve (off by default): each session id
         * seals, with AES-256-GCM, who opened it and the client's initialize params; a replica that
         * does not know an id opens it and replays the handshake into a server of its own. An id
         * that does not open, is older than {@code maxAge}, or is another principal's is answered
         * 404 as an unknown one. With {@link #replicas}, log level, subscriptions, DELETE, answers and
         * cancellations cross replicas; streams stay where opened (docs/design/replicas-sessions.md).
         */
        public Builder portableSessions(SessionKeys keys, Duration maxAge) {
            this.sessionKeys = java.util.Optional.of(Objects.requireNonNull(keys, "keys"));
            this.sessionMaxAge = positive(maxAge, "maxAge");
            return this;
        }

        /**
         * The other replicas of this deployment (warden-store-redis gives a bus on Redis), for
         * portable sessions: what a session changes after initialize, the client's answers to a
         * server's questions and its cancellations reach the replica that needs them. Unset:
         * {@link dev.warden.core.cluster.ReplicaBus#none()}, one process.
         */
        public Builder replicas(dev.warden.core.cluster.ReplicaBus bus) {
            this.replicas = Objects.requireNonNull(bus, "replicas");
            return this;
        }

        /** Called with each new session's transport; connect a server to it. Required. */
        public Builder onSession(Consumer<Transport> onSession) {
            this.onSession = Objects.requireNonNull(onSession, "onSession");
            return this;
        }

        public McpHttpServer build() {
            if (onSession == null) {
                throw new IllegalStateException("onSession is required: it connects a server to each new session");
            }
            if (allowedHosts.isEmpty() && !HostPolicy.isLoopback(host)) {
                throw new IllegalStateException("host " + host + " is not a loopback address: set allowedHosts "
                        + "to the names clients use to reach it");
            }
            if (authenticator.isEmpty() && !insecureNoAuth && !HostPolicy.isLoopback(host)) {
                throw new IllegalStateException("host " + host + " is not a loopback address and no authenticator "
                        + "is set: anyone who reaches it could call every tool; set an authenticator, or "
                        + "insecureNoAuth() if something in front authenticates");
            }
            return new McpHttpServer(this);
        }

        private static Duration positive(Duration d, String name) {
            if (d == null || d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException(name + " must be positive, got " + d);
            }
            return d;
        }
    }
}
