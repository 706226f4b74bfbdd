package dev.warden.console;

import com.sun.net.httpserver.HttpServer;
import dev.warden.console.feed.ConsoleFeed;
import dev.warden.client.auth.CodeGrant;
import dev.warden.console.web.AdminGate;
import dev.warden.console.web.BrowserSignIn;
import dev.warden.console.web.ConsoleHandler;
import dev.warden.console.web.Routes;
import dev.warden.console.web.Sources;
import dev.warden.core.identity.Authenticator;
import dev.warden.core.incident.IncidentStore;
import dev.warden.gateway.auditlog.AuditLogReader;
import dev.warden.gateway.view.UpstreamState;
import dev.warden.http.server.HostPolicy;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * The operator's console of a gateway, served on a port of its own (loopback by default) by the
 * JDK's HTTP server: read-only pages need nothing more. Behind the gateway's auth when it has
 * one, with an admin scope besides ({@link AdminGate}); a host that is not loopback needs either
 * auth or {@link Builder#insecureNoAuth()}.
 *
 * <pre>{@code
 * ConsoleFeed feed = ConsoleFeed.of(clock);
 * Gateway gateway = Gateway.builder()...audit(feed.tee(store.audit()), false).build();
 * try (Console console = Console.builder().upstreams(gateway::upstreamStates).feed(feed)
 *         .incidents(store.incidents()).build().start()) { ... }
 * }</pre>
 */
public final class Console implements AutoCloseable {

    /** The scope a caller needs besides the gateway's own to read the console, unless configured. */
    public static final String DEFAULT_ADMIN_SCOPE = AdminGate.DEFAULT_SCOPE;

    private final HttpServer server;
    private final ExecutorService executor;
    private final String host;

    private Console(HttpServer server, ExecutorService executor, String host) {
        this.server = server;
        this.executor = executor;
        this.host = host;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The port it listens on (the one picked, for port 0). */
    public int port() {
        return server.getAddress().getPort();
    }

    /** Where an operator opens it. */
    public URI uri() {
        String h = host.indexOf(':') >= 0 && !host.startsWith("[") ? "[" + host + "]" : host;
        return URI.create("http://" + h + ":" + port() + "/");
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }

    public static final class Builder {
        private String host = "127.0.0.1";
        private int port;
        private Set<String> allowedHosts = Set.of();
        private Supplier<List<UpstreamState>> upstreams = List::of;
        private ConsoleFeed feed;
        private Optional<IncidentStore> incidents = Optional.empty();
        private Optional<AuditLogReader> auditLog = Optional.empty();
        private Clock clock = Clock.systemUTC();
        private Optional<Authenticator> authenticator = Optional.empty();
        private Supplier<URI> resource = () -> URI.create("http://127.0.0.1/");
        private String scope = AdminGate.DEFAULT_SCOPE;
        private boolean insecure;
        private Optional<String> clientId = Optional.empty();
        private Optional<String> clientSecret = Optional.empty();
        private Optional<URI> publicUrl = Optional.empty();

        private Builder() {
        }

        /** Where it listens: {@code 127.0.0.1} and a port the system picks, unless set. */
        public Builder address(String host, int port) {
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("port must be from 0 to 65535, got " + port);
            }
            this.host = Objects.requireNonNull(host, "host");
            this.port = port;
            return this;
        }

        /** The names it may be reached by ({@code http.allowedHosts}); unset: the loopback names. */
        public Builder allowedHosts(Set<String> hosts) {
            this.allowedHosts = Set.copyOf(hosts);
            return this;
        }

        /** The gateway's upstreams now ({@code gateway::upstreamStates}). */
        public Builder upstreams(Supplier<List<UpstreamState>> upstreams) {
            this.upstreams = Objects.requireNonNull(upstreams, "upstreams");
            return this;
        }

        /** What was teed from the gateway's audit records ({@link ConsoleFeed#tee}). */
        public Builder feed(ConsoleFeed feed) {
            this.feed = Objects.requireNonNull(feed, "feed");
            return this;
        }

        /** Where the gateway keeps incidents: the incident pages read it. */
        public Builder incidents(IncidentStore store) {
            this.incidents = Optional.of(store);
            return this;
        }

        /**
         * Where the gateway writes its audit records (the file log or PostgreSQL): the audit page
         * reads its tail there, so it survives a restart and holds every replica's records; unset, or
         * when it cannot be read, the feed's records of this process.
         */
        public Builder auditLog(AuditLogReader reader) {
            this.auditLog = Optional.of(reader);
            return this;
        }

        /** What the pages' "now" and the last hour are measured by: the gateway's clock. */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /**
         * The gateway's authenticator: only a caller it admits for {@code resource} and who holds
         * {@code adminScope} may read the console.
         */
        public Builder auth(Authenticator authenticator, Supplier<URI> resource, String adminScope) {
            this.authenticator = Optional.of(authenticator);
            this.resource = Objects.requireNonNull(resource, "resource");
            this.scope = Objects.requireNonNull(adminScope, "adminScope");
            return this;
        }

        /**
         * Browsers sign in through the gateway's authorization server (its auth's first issuer) as
         * this OAuth client: authorization code with PKCE; {@code secret} empty for a public client.
         *
         * @param publicUrl the URL operators open the console by (an https one behind a TLS proxy
         *     makes the cookie Secure), with no path but {@code /}: the redirect URI is its
         *     {@code /login/callback}. Unset: the loopback address the console is bound to, over
         *     http (never a request's Host); a console not on loopback needs it.
         */
        public Builder signIn(String clientId, Optional<String> secret, Optional<URI> publicUrl) {
            if (clientId == null || clientId.isBlank()) {
                throw new IllegalArgumentException("the console's client id must not be empty");
            }
            this.clientId = Optional.of(clientId);
            this.clientSecret = Objects.requireNonNull(secret, "secret").filter(s -> !s.isEmpty());
            this.publicUrl = Objects.requireNonNull(publicUrl, "publicUrl").map(u -> {
                if (!u.isAbsolute() || u.getHost() == null || !(u.getScheme().equals("https") || u.getScheme().equals("http"))) {
                    throw new IllegalArgumentException("the console's URL must be an absolute http or https URL");
                }
                if (u.getRawPath() != null && !u.getRawPath().isEmpty() && !u.getRawPath().equals("/")
                        || u.getRawQuery() != null || u.getRawFragment() != null) {
                    // The console answers at the root of its host; a proxy that adds a path would need
                    // every page's links rewritten, so a path here is refused rather than lost.
                    throw new IllegalArgumentException("the console's URL must have no path, query or fragment "
                            + "(the console is served at the root of its host): " + u.getScheme() + "://"
                            + u.getRawAuthority() + "/");
                }
                return u.resolve("/");
            });
            return this;
        }

        /** Serve a host that is not loopback without auth: only behind something that authenticates. */
        public Builder insecureNoAuth() {
            this.insecure = true;
            return this;
        }

        /** Checks the settings; {@link #start} binds. */
        public Builder build() {
            if (feed == null) {
                throw new IllegalStateException("the console needs the feed the gateway's audit records are teed into");
            }
            if (!HostPolicy.isLoopback(host) && authenticator.isEmpty() && !insecure) {
                throw new IllegalStateException("the console's host " + host + " is not a loopback address and the "
                        + "gateway has no auth: anyone who reaches it could read incidents; configure auth, or "
                        + "serve it on loopback");
            }
            if (!HostPolicy.isLoopback(host) && allowedHosts.isEmpty()) {
                throw new IllegalStateException("the console's host " + host + " is not a loopback address: set "
                        + "http.allowedHosts to the names operators use to reach it");
            }
            if (clientId.isPresent() && publicUrl.isEmpty() && !HostPolicy.isLoopback(host)) {
                throw new IllegalStateException("the console's host " + host + " is not a loopback address: browser "
                        + "sign-in needs the URL operators open it by (--console-url), to make the redirect URI from");
            }
            new AdminGate(authenticator, resource, scope); // the scope is checked here, before binding
            if (clientId.isPresent() && issuer().isEmpty()) {
                throw new IllegalStateException("a console client id needs the gateway's auth with an OAuth issuer "
                        + "to sign browsers in at; with API keys alone, clients send X-API-Key");
            }
            return this;
        }

        /** The authorization server browsers sign in at: the first issuer the gateway's auth names. */
        private Optional<URI> issuer() {
            return authenticator.flatMap(a -> a.metadata(resource.get()).authorizationServers().stream().findFirst());
        }

        /** @param bound where the console listens: the redirect URI's base when no URL is configured */
        private Optional<BrowserSignIn> browserSignIn(AdminGate gate, URI bound) {
            return clientId.map(id -> {
                Set<String> scopes = new java.util.LinkedHashSet<>(authenticator.orElseThrow().requiredScopes());
                scopes.add(scope);
                return new BrowserSignIn(new CodeGrant(issuer().orElseThrow(), id, clientSecret), gate, resource,
                        scopes, publicUrl.orElse(bound), clock);
            });
        }

        public Console start() throws IOException {
            build();
            AdminGate gate = new AdminGate(authenticator, resource, scope);
            HostPolicy hosts = allowedHosts.isEmpty() ? HostPolicy.loopback() : new HostPolicy(allowedHosts);
            HttpServer http = HttpServer.create(new InetSocketAddress(host, port), 16);
            ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
            Console console = new Console(http, executor, host);
            http.createContext("/", new ConsoleHandler(hosts, gate,
                    new Routes(new Sources(upstreams, feed, incidents, auditLog, clock)), browserSignIn(gate, console.uri())));
            http.setExecutor(executor);
            http.start();
            return console;
        }
    }
}
