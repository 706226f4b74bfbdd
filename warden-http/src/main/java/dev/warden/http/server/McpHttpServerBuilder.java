package dev.warden.http.server;

import dev.warden.core.transport.Transport;
import dev.warden.core.identity.Authenticator;
import dev.warden.http.server.internal.settings.ResumeWindow;
import java.time.Duration;
import java.time.InstantSource;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;

/**
 * How an {@link McpHttpServer} is set up ({@link McpHttpServer#builder()}): where it listens, what
 * it admits, the bounds of its sessions and streams, who may call, and how sessions cross
 * replicas. Each setter checks its value and names a bad one; {@link #build} checks what only the
 * whole says (a non-loopback address needs its host names, and an authenticator or an explicit
 * {@link #insecureNoAuth}).
 */
public final class McpHttpServerBuilder {
    String host = "127.0.0.1";
    int port = 0;
    String path = "/mcp";
    final Set<String> allowedHosts = new LinkedHashSet<>();
    int maxBodyBytes = 4 * 1024 * 1024;
    Duration retry = Duration.ofSeconds(1);
    Duration resumeWindow = Duration.ofSeconds(60);
    /** What runs the resume window: the server's timer thread unless a test sets its own. */
    java.util.Optional<ResumeWindow.Timer> resumeTimer = java.util.Optional.empty();
    Duration sessionIdleTimeout = Duration.ofMinutes(10);
    int maxSessions = McpHttpServer.DEFAULT_MAX_SESSIONS;
    int maxSessionsPerAddress = McpHttpServer.DEFAULT_MAX_SESSIONS_PER_ADDRESS;
    int maxPendingRequests = 1_000;
    int streamBufferEvents = 1024;
    long streamBufferBytes = 8L * 1024 * 1024;
    long retainedBytesPerSession = 16L * 1024 * 1024;
    int maxHeaderBytes = 16 * 1024;
    Duration requestTimeout = Duration.ofSeconds(30);
    InstantSource clock = InstantSource.system();
    final Set<String> allowedOrigins = new LinkedHashSet<>();
    Duration keepAlive = Duration.ofSeconds(15);
    Consumer<Transport> onSession;
    dev.warden.core.incident.ErrorBoundary boundary = dev.warden.core.incident.ErrorBoundary.ofDefaults();
    dev.warden.telemetry.McpTelemetry telemetry = dev.warden.telemetry.McpTelemetry.ofGlobal();
    java.util.Optional<Authenticator> authenticator = java.util.Optional.empty();
    boolean insecureNoAuth;
    Admission admission = Admission.always();
    java.util.Optional<SessionKeys> sessionKeys = java.util.Optional.empty();
    dev.warden.core.cluster.ReplicaBus replicas = dev.warden.core.cluster.ReplicaBus.none();
    Duration sessionMaxAge = Duration.ofHours(24);

    McpHttpServerBuilder() {
    }

    /** The interface to bind; 127.0.0.1 by default. Binding elsewhere needs {@link #allowedHosts}. */
    public McpHttpServerBuilder host(String host) {
        this.host = Objects.requireNonNull(host, "host");
        return this;
    }

    public McpHttpServerBuilder port(int port) {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port must be between 0 and 65535, got " + port);
        }
        this.port = port;
        return this;
    }

    public McpHttpServerBuilder path(String path) {
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
    public McpHttpServerBuilder allowedHosts(Set<String> hosts) {
        allowedHosts.clear();
        for (String h : hosts) {
            if (h == null || h.isBlank() || h.contains("/")) {
                throw new IllegalArgumentException("allowedHosts must hold host names, got " + h);
            }
            allowedHosts.add(h);
        }
        return this;
    }

    public McpHttpServerBuilder maxBodyBytes(int max) {
        if (max < 1024) {
            throw new IllegalArgumentException("maxBodyBytes must be at least 1024, got " + max);
        }
        this.maxBodyBytes = max;
        return this;
    }

    /** The reconnection delay the priming event asks clients to wait. */
    public McpHttpServerBuilder retry(Duration retry) {
        this.retry = positive(retry, "retry");
        return this;
    }

    /**
     * How long a response stream whose connection broke waits for the client to resume it before
     * its requests are cancelled.
     */
    public McpHttpServerBuilder resumeWindow(Duration window) {
        this.resumeWindow = positive(window, "resumeWindow");
        return this;
    }

    /** The timer of the resume window: a test's own, which it moves by hand instead of waiting. */
    McpHttpServerBuilder resumeTimer(ResumeWindow.Timer timer) {
        this.resumeTimer = java.util.Optional.of(Objects.requireNonNull(timer, "timer"));
        return this;
    }

    /**
     * How often open streams get a keep-alive comment. The write is also how a connection the
     * client dropped is noticed (and, after the resume window, its request cancelled).
     */
    public McpHttpServerBuilder keepAlive(Duration interval) {
        this.keepAlive = positive(interval, "keepAlive");
        return this;
    }

    /**
     * How long a session with no request in flight and no stream open is kept (10 minutes by
     * default); then it is closed and its id answers 404.
     */
    public McpHttpServerBuilder sessionIdleTimeout(Duration timeout) {
        this.sessionIdleTimeout = positive(timeout, "sessionIdleTimeout");
        return this;
    }

    /**
     * The most sessions open at once (10,000 by default), and from one remote address (1,000).
     * At a cap the session idle for longest is closed to make room; when none is idle, the
     * initialize is refused with 503.
     */
    public McpHttpServerBuilder maxSessions(int total, int perAddress) {
        if (total < 1 || perAddress < 1) {
            throw new IllegalArgumentException("maxSessions must be positive, got " + total + " and " + perAddress);
        }
        this.maxSessions = total;
        this.maxSessionsPerAddress = perAddress;
        return this;
    }

    /** The most requests in flight in one session (1,000 by default); past it a POST is refused with 429. */
    public McpHttpServerBuilder maxPendingRequests(int max) {
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
    public McpHttpServerBuilder streamBuffer(int maxEvents, long maxBytes) {
        if (maxEvents < 1 || maxBytes < 1024) {
            throw new IllegalArgumentException("streamBuffer needs at least 1 event and 1024 bytes");
        }
        this.streamBufferEvents = maxEvents;
        this.streamBufferBytes = maxBytes;
        return this;
    }

    /** What all the streams of one session keep for resumption, in bytes (16 MiB by default). */
    public McpHttpServerBuilder retainedBytesPerSession(long max) {
        if (max < 1024) {
            throw new IllegalArgumentException("retainedBytesPerSession must be at least 1024, got " + max);
        }
        this.retainedBytesPerSession = max;
        return this;
    }

    /** The largest request header block (16 KiB by default); larger ones are refused with 431. */
    public McpHttpServerBuilder maxHeaderBytes(int max) {
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
    public McpHttpServerBuilder requestTimeout(Duration timeout) {
        this.requestTimeout = positive(timeout, "requestTimeout");
        return this;
    }

    /** The clock of idle expiry and request deadlines (tests inject one). */
    public McpHttpServerBuilder clock(InstantSource clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
        return this;
    }

    /**
     * Origins ({@code scheme://host[:port]}) accepted besides the server's own, such as a
     * browser-based inspector served from another local port. None by default: a page from
     * another origin, another port of localhost included, is refused with 403.
     */
    public McpHttpServerBuilder allowedOrigins(Set<String> origins) {
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
    public McpHttpServerBuilder boundary(dev.warden.core.incident.ErrorBoundary boundary) {
        this.boundary = Objects.requireNonNull(boundary, "boundary");
        return this;
    }

    /**
     * What records the SERVER span of a POST refused before any session sees it (a 401, a 415, a
     * 503 while draining...), as the server's telemetry records the messages a session handles.
     * Default: {@code McpTelemetry.ofGlobal()}, a no-op until the application installs the SDK.
     */
    public McpHttpServerBuilder telemetry(dev.warden.telemetry.McpTelemetry telemetry) {
        this.telemetry = Objects.requireNonNull(telemetry, "telemetry");
        return this;
    }

    /**
     * Who may call: every request to the endpoint (POST, GET, DELETE) must carry credentials
     * the authenticator admits (an OAuth 2.1 access token, an API key), or it is refused with
     * 401 and a challenge pointing to this resource's RFC 9728 metadata, which the server then
     * serves at {@code /.well-known/oauth-protected-resource}. Sessions belong to the caller
     * that opened them. None by default, which only a loopback server may go without.
     */
    public McpHttpServerBuilder authenticator(Authenticator authenticator) {
        this.authenticator = java.util.Optional.of(Objects.requireNonNull(authenticator, "authenticator"));
        return this;
    }

    /**
     * Serve a host that is not loopback without an authenticator, to anyone who can reach it.
     * Only for a network where something else in front authenticates.
     */
    public McpHttpServerBuilder insecureNoAuth() {
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
    public McpHttpServerBuilder admission(Admission admission) {
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
    public McpHttpServerBuilder portableSessions(SessionKeys keys, Duration maxAge) {
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
    public McpHttpServerBuilder replicas(dev.warden.core.cluster.ReplicaBus bus) {
        this.replicas = Objects.requireNonNull(bus, "replicas");
        return this;
    }

    /** Called with each new session's transport; connect a server to it. Required. */
    public McpHttpServerBuilder onSession(Consumer<Transport> onSession) {
        this.onSession = Objects.requireNonNull(onSession, "onSession");
        return this;
    }

    public McpHttpServer build() {
        check();
        return new McpHttpServer(this);
    }

    /**
     * The endpoint as a handler for a Jetty server someone else owns (see {@link McpHttpHandler}),
     * with this builder's settings but its port. {@link #host} is the interface that server binds,
     * checked as {@link #build()} checks it: one that is not loopback needs {@link #allowedHosts}
     * and an authenticator.
     */
    public McpHttpHandler buildHandler() {
        check();
        return new McpHttpHandler(this);
    }

    private void check() {
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
    }

    private static Duration positive(Duration d, String name) {
        if (d == null || d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(name + " must be positive, got " + d);
        }
        return d;
    }
}
