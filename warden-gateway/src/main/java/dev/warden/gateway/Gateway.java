package dev.warden.gateway;

import dev.warden.core.incident.IncidentSink;
import dev.warden.core.sanitize.Sanitizer;
import dev.warden.core.transport.StdioTransport;
import dev.warden.core.transport.Transport;
import dev.warden.gateway.auditlog.AuditSink;
import dev.warden.gateway.config.GatewayConfig;
import dev.warden.gateway.config.Limits;
import dev.warden.gateway.config.Upstream;
import dev.warden.gateway.internal.limits.ConnectionSlots;
import dev.warden.gateway.internal.failure.ErrorPipeline;
import dev.warden.gateway.internal.metrics.GatewayMetrics;
import dev.warden.gateway.internal.catalog.Naming;
import dev.warden.gateway.internal.parked.ParkedCalls;
import dev.warden.gateway.internal.call.Services;
import dev.warden.gateway.internal.ProxyConnection;
import dev.warden.gateway.internal.upstream.UpstreamLink;
import dev.warden.telemetry.McpTelemetry;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.Objects;
import java.util.List;
import java.util.Optional;

/**
 * Warden in front of an MCP server it did not write: each client connection gets the upstream
 * behind a connection of its own ({@link GatewayConnection}), and everything the upstream says on the way back goes through
 * the error pipeline (sanitized, coded, given a ref; the original kept in the incident store).
 *
 * <pre>{@code
 * Gateway gateway = Gateway.builder()
 *         .upstream(Upstream.stdio("everything", List.of("npx", "-y", "@modelcontextprotocol/server-everything")))
 *         .incidents(store)
 *         .build();
 * gateway.serveStdio();   // warden wrap
 * }</pre>
 */
public final class Gateway implements AutoCloseable {

    /** Calls waiting for their stateless client's input, in all, unless configured. */
    public static final int DEFAULT_PARKED_CALLS = GatewayConfig.Parked.DEFAULT_TOTAL;
    /** The same, per client (by address): fewer than an upstream's default concurrency of 64. */
    public static final int DEFAULT_PARKED_CALLS_PER_CLIENT = GatewayConfig.Parked.DEFAULT_PER_CLIENT;

    private final List<UpstreamLink> links;
    private final Naming naming;
    private final int maxMessageBytes;
    private final Services services;

    private Gateway(Builder b) {
        if (b.upstreams.isEmpty()) {
            throw new IllegalArgumentException("a gateway needs at least one upstream");
        }
        java.util.Set<String> names = new java.util.HashSet<>();
        for (Upstream u : b.upstreams) {
            if (!names.add(u.name())) {
                throw new IllegalArgumentException("upstream \"" + u.name() + "\" is configured twice");
            }
        }
        List<String> upstreamNames = b.upstreams.stream().map(Upstream::name).toList();
        dev.warden.gateway.config.NameClash.first(upstreamNames, b.separator).ifPresent(c -> {
            throw new IllegalArgumentException(c.explain(i -> "upstream \"" + upstreamNames.get(i) + "\""));
        });
        GatewayMetrics metrics = new GatewayMetrics(b.registry);
        this.metrics = metrics;
        // Only a tool an upstream listed names a span: a caller's made-up name never does. The gateway
        // lists each upstream's tools as it connects (ListingOnConnect), and notes each client's listing.
        dev.warden.gateway.internal.catalog.ToolCatalog catalog = new dev.warden.gateway.internal.catalog.ToolCatalog();
        this.telemetry = b.telemetry.orElseGet(McpTelemetry::ofGlobal).knowing(catalog::names);
        this.clock = b.clock;
        this.incidents = b.incidents;
        this.sanitizer = b.sanitizer;
        this.shared = b.shared;
        this.replicas = b.replicas;
        for (Upstream u : b.upstreams) {
            ConnectionSlots s = new ConnectionSlots(u.name(), u.limits().maxConnections());
            slots.put(u.name(), s);
            metrics.connections(u.name(), s, ConnectionSlots::inUse);
        }
        this.naming = b.prefixAlways ? new Naming(true, b.separator)
                : new Naming(b.upstreams.size() > 1, b.separator);
        dev.warden.gateway.internal.catalog.PinWatch pins = new dev.warden.gateway.internal.catalog.PinWatch(
                b.upstreams, incidents, b.clock);
        this.listing = new dev.warden.gateway.internal.catalog.ListingOnConnect(catalog, pins, naming);
        this.links = b.upstreams.stream().map(this::link).toList();
        // Among replicas a parked call's round may land on another one: it is taken to this one.
        dev.warden.gateway.internal.call.ParkedForwarding forwarding = b.replicas.alone()
                ? dev.warden.gateway.internal.call.ParkedForwarding.none()
                : dev.warden.gateway.internal.call.ParkedForwarding.over(b.replicas,
                        dev.warden.core.cluster.ReplicaCalls.shared(b.replicas));
        ParkedCalls parked = new ParkedCalls(b.clock, b.parkedTotal, b.parkedPerClient, forwarding.tokens());
        this.lifecycle = new dev.warden.gateway.health.Lifecycle(b.clock);
        metrics.parked(parked, ParkedCalls::size);
        this.services = new Services(new dev.warden.gateway.internal.audit.AuditTrail(b.audit, b.failClosed, metrics,
                b.incidents::recording, b.clock),
                new dev.warden.gateway.internal.limits.ClientRates(b.perClient, b.clock, b.shared.rates()),
                parked, catalog,
                dev.warden.core.incident.ErrorBoundary.builder().incidents(incidents).clock(b.clock).build(),
                b.access.map(a -> new dev.warden.gateway.internal.access.AccessPolicy(
                        dev.warden.gateway.internal.access.AccessRules.compile(a.rules()))),
                b.clock, pins,
                forwarding, lifecycle.draining(), new dev.warden.gateway.internal.upstream.TaskOwners(), b.toolScopes, telemetry);
        // Calls are swept before each admission too; this frees what a client left parked when no call comes.
        // Which calls have expired is decided by the clock; the sweep only says how often to look, a
        // scheduled task that closing cancels at once.
        this.sweeper = Executors.newSingleThreadScheduledExecutor(Thread.ofVirtual().name("warden-parked-sweep")
                .factory());
        sweeper.scheduleWithFixedDelay(parked::sweep, SWEEP_EVERY.toMillis(), SWEEP_EVERY.toMillis(),
                TimeUnit.MILLISECONDS);
        this.maxMessageBytes = b.maxMessageBytes;
        this.readiness = new dev.warden.gateway.health.Readiness(lifecycle, b.healthChecks);
        // Last: rounds forwarded here are served by this gateway, now complete.
        forwarding.serve(this::connect, links.stream().map(l -> l.spec().timeout()).max(java.time.Duration::compareTo)
                .orElse(java.time.Duration.ofSeconds(60)), parked::holds, lifecycle, services.boundary());
    }

    private final dev.warden.gateway.health.Lifecycle lifecycle;
    private final dev.warden.gateway.health.Readiness readiness;

    /**
     * Whether new calls are admitted, and how many are in flight: the HTTP server enters and exits
     * it around each request, and {@link #drain} turns it to draining.
     */
    public dev.warden.gateway.health.Lifecycle lifecycle() {
        return lifecycle;
    }

    /** The names of the readiness checks that fail now ({@code draining}, a shared store's); empty when ready. */
    public List<String> unready() {
        return readiness.failing();
    }

    /**
     * Stops taking new calls at once (readiness false; the HTTP server refuses them with 503 and
     * {@code Retry-After}), then waits until the calls in flight have finished or {@code bound}
     * has passed. Returns whether every call finished; {@link #close} stops the rest.
     */
    public boolean drain(java.time.Duration bound) throws InterruptedException {
        lifecycle.drain(bound);
        return lifecycle.awaitDrained(DRAIN_LOOKS_EVERY);
    }

    private static final java.time.Duration DRAIN_LOOKS_EVERY = java.time.Duration.ofMillis(50);

    private final GatewayMetrics metrics;
    private final McpTelemetry telemetry;
    /**
     * What everything that depends on time is decided by: parked calls' expiry, idle upstream
     * connections, breakers' open time, rate limits' refill, and the times of records and incidents.
     */
    private final Clock clock;
    /** Each upstream's connections (stdio: processes), shared by its shared and per-client links. */
    private final java.util.Map<String, ConnectionSlots> slots = new java.util.HashMap<>();
    private final ScheduledExecutorService sweeper;
    private static final java.time.Duration SWEEP_EVERY = java.time.Duration.ofSeconds(10);
    private final IncidentSink incidents;
    private final Sanitizer sanitizer;
    /** Rates and breakers shared with the other replicas (none in one process). */
    private final dev.warden.gateway.internal.limits.SharedState shared;
    /** The other replicas, where a parked call's next round may land (none: one process). */
    private final dev.warden.core.cluster.ReplicaBus replicas;

    /** Lists each upstream's tools as it first connects, so calls made without a listing are known. */
    private final dev.warden.gateway.internal.catalog.ListingOnConnect listing;

    private UpstreamLink link(Upstream u) {
        return new UpstreamLink(u, new ErrorPipeline(u.name(),
                u.pii() ? Sanitizer.builder().pii().build() : sanitizer, u.policy(), u.redactSuccessfulResults(),
                u.pii(), incidents, clock, category -> metrics.finding(u.name(), category), u::redactsResultsOf),
                metrics, slots.get(u.name()), clock, shared, telemetry, listing);
    }

    /** What the gateway's own failures and refusals become; its incidents go where {@link Builder#incidents} says. */
    public dev.warden.core.incident.ErrorBoundary boundary() {
        return services.boundary();
    }

    public static Builder builder() {
        return new Builder();
    }

    public List<Upstream> upstreams() {
        return links.stream().map(UpstreamLink::spec).toList();
    }

    /** Each upstream as it is now (breaker, connections): what an operator's console shows, read only. */
    public List<dev.warden.gateway.view.UpstreamState> upstreamStates() {
        return UpstreamStates.of(links, slots);
    }

    /** Serves one client on {@code downstream}; returns once started. */
    public GatewayConnection connect(Transport downstream) {
        ProxyConnection connection = start(downstream);
        return new GatewayConnection(connection.closed(), connection::close);
    }

    private ProxyConnection start(Transport downstream) {
        // Per-client upstreams get a link of this connection's own, closed with it.
        // An upstream that acts on behalf of callers reaches it with this connection's caller's token.
        java.util.function.Supplier<Optional<String>> callerToken = () -> downstream
                instanceof dev.warden.core.transport.AuthenticatedPeer peer ? peer.caller()
                .flatMap(dev.warden.core.identity.Caller::token).map(dev.warden.core.identity.PresentedToken::value)
                : Optional.empty();
        List<UpstreamLink> own = links.stream().map(l -> l.spec().perClient()
                ? link(l.spec().onBehalfOf(callerToken)).dedicate() : l).toList();
        ProxyConnection connection = new ProxyConnection(downstream, own, links, naming, services);
        connection.start();
        connection.closed().whenComplete((v, e) -> own.stream().filter(l -> !links.contains(l))
                .forEach(UpstreamLink::close));
        return connection;
    }

    /**
     * Serves the client on this process's stdin and stdout until it disconnects ({@code warden
     * wrap}); anything else that writes to {@code System.out} goes to stderr instead.
     */
    public void serveStdio() {
        FileInputStream in = new FileInputStream(FileDescriptor.in);
        FileOutputStream out = new FileOutputStream(FileDescriptor.out);
        System.setOut(new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8));
        // One client, ever: what the servers ask (roots at start, say) goes to it, as it would directly.
        links.forEach(UpstreamLink::dedicateWholly);
        ProxyConnection connection = start(StdioTransport.of(in, out, maxMessageBytes));
        try {
            connection.closed().join();
        } finally {
            connection.close();
        }
    }

    /** Stops every upstream. */
    @Override
    public void close() {
        sweeper.shutdownNow();
        links.forEach(UpstreamLink::close);
    }

    public static final class Builder {
        private final List<Upstream> upstreams = new java.util.ArrayList<>();
        private IncidentSink incidents = IncidentSink.stderr();
        private Sanitizer sanitizer = Sanitizer.ofDefaults();
        private int maxMessageBytes = StdioTransport.DEFAULT_MAX_MESSAGE_BYTES;
        private String separator = Naming.DEFAULT_SEPARATOR;
        private boolean prefixAlways;
        private Optional<Limits.Rate> perClient = Optional.empty();
        private AuditSink audit = AuditSink.none();
        private boolean failClosed;
        private io.micrometer.core.instrument.MeterRegistry registry =
                new io.micrometer.core.instrument.simple.SimpleMeterRegistry();
        private Clock clock = Clock.systemUTC();
        private int parkedTotal = DEFAULT_PARKED_CALLS;
        private int parkedPerClient = DEFAULT_PARKED_CALLS_PER_CLIENT;
        private Optional<dev.warden.gateway.config.Access> access = Optional.empty();
        private final List<dev.warden.gateway.health.HealthCheck> healthChecks = new java.util.ArrayList<>();
        private dev.warden.gateway.internal.limits.SharedState shared = dev.warden.gateway.internal.limits.SharedState.LOCAL;
        private dev.warden.core.cluster.ReplicaBus replicas = dev.warden.core.cluster.ReplicaBus.none();
        private java.util.function.Function<String, java.util.Set<String>> toolScopes = tool -> java.util.Set.of();
        private Optional<McpTelemetry> telemetry = Optional.empty();

        /**
         * Spans: one per client request, a child per upstream request (its {@code _meta} carrying its context).
         * Unset: {@link McpTelemetry#ofGlobal()} as of {@link #build()}, a no-op without the SDK.
         */
        public Builder telemetry(McpTelemetry telemetry) {
            this.telemetry = Optional.of(Objects.requireNonNull(telemetry, "telemetry"));
            return this;
        }

        /**
         * The scopes each tool needs of the caller's token (the authenticator's {@code toolScopes},
         * by the name clients call it): the HTTP server checks them on {@code tools/call}, the
         * gateway on what stands for a call later (its task's status and result). Unset: none.
         */
        public Builder toolScopes(java.util.function.Function<String, java.util.Set<String>> scopes) {
            this.toolScopes = Objects.requireNonNull(scopes, "toolScopes");
            return this;
        }

        /**
         * A dependency without which this gateway is not ready (a shared store): {@code GET /readyz}
         * answers 503 naming it while its probe fails. Names must be distinct.
         */
        public Builder healthCheck(dev.warden.gateway.health.HealthCheck check) {
            healthChecks.add(Objects.requireNonNull(check, "healthCheck"));
            return this;
        }

        /**
         * Several replicas behind a load balancer: the per-client and per-tool rates are counted by
         * {@code rates} for all of them, and a breaker one opens is announced on {@code breakers}.
         * Unset: everything is this process's own.
         */
        public Builder shared(dev.warden.gateway.shared.SharedRates rates, dev.warden.gateway.shared.SharedBreakers breakers) {
            this.shared = new dev.warden.gateway.internal.limits.SharedState(
                    Optional.of(Objects.requireNonNull(rates, "rates")), Objects.requireNonNull(breakers, "breakers"));
            return this;
        }

        /**
         * The other replicas of this deployment (warden-store-redis gives a bus on Redis): a parked
         * 2026-07-28 call whose next round reaches another replica is answered by this one, which
         * holds it. Unset: {@link dev.warden.core.cluster.ReplicaBus#none()}, one process.
         */
        public Builder replicas(dev.warden.core.cluster.ReplicaBus bus) {
            this.replicas = Objects.requireNonNull(bus, "replicas");
            return this;
        }

        /**
         * Who may see and use which tools, resources and prompts ({@code access.rules}): an item is
         * visible iff one rule is true for the connection's caller; others are unknown to it, as a
         * tool {@code tools.deny} hides. Unset: everything is allowed.
         */
        public Builder access(dev.warden.gateway.config.Access access) {
            this.access = Optional.of(Objects.requireNonNull(access, "access"));
            return this;
        }

        /**
         * What expiry, idleness, breakers' pauses and rate limits are measured by, and what dates
         * records and incidents: the tests' movable clock; the system clock (UTC) otherwise.
         */
        Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /**
         * How many calls of stateless clients may wait for their client's input at once: in all,
         * and per client (by its address). Each holds a place among its upstream's concurrent calls.
         */
        public Builder parkedCalls(int total, int perClient) {
            if (total < 1 || perClient < 1) {
                throw new IllegalArgumentException("parked calls must be at least 1 in all and per client, got "
                        + total + " and " + perClient);
            }
            this.parkedTotal = total;
            this.parkedPerClient = perClient;
            return this;
        }

        /**
         * One record per request. With {@code failClosed}, requests are refused while the sink
         * fails, instead of being served unrecorded.
         */
        public Builder audit(AuditSink sink, boolean failClosed) {
            this.audit = Objects.requireNonNull(sink, "audit");
            this.failClosed = failClosed;
            return this;
        }

        /** Where the gateway's meters go (a Prometheus registry, say). */
        public Builder metrics(io.micrometer.core.instrument.MeterRegistry registry) {
            this.registry = Objects.requireNonNull(registry, "metrics");
            return this;
        }

        private Builder() {
        }

        /** Calls each client connection may make per period, across all upstreams. */
        public Builder perClient(Limits.Rate rate) {
            this.perClient = Optional.of(Objects.requireNonNull(rate, "perClient"));
            return this;
        }

        public Builder upstream(Upstream upstream) {
            upstreams.add(Objects.requireNonNull(upstream, "upstream"));
            return this;
        }

        /** Where the originals of sanitized failures go (the store `warden incidents` reads, say). */
        public Builder incidents(IncidentSink incidents) {
            this.incidents = Objects.requireNonNull(incidents, "incidents");
            return this;
        }

        public Builder sanitizer(Sanitizer sanitizer) {
            this.sanitizer = Objects.requireNonNull(sanitizer, "sanitizer");
            return this;
        }

        /**
         * How upstream and tool names are joined ({@code crm__lookup} by default); names are
         * prefixed when there are several upstreams, or always if {@code always}.
         */
        public Builder namespacing(String separator, boolean always) {
            if (separator == null || separator.isEmpty() || separator.chars().anyMatch(Character::isWhitespace)) {
                throw new IllegalArgumentException("separator must be non-empty without spaces, got \"" + separator
                        + "\"");
            }
            this.separator = separator;
            this.prefixAlways = always;
            return this;
        }

        /** The largest message accepted from the client. */
        public Builder maxMessageBytes(int max) {
            if (max < 1024) {
                throw new IllegalArgumentException("maxMessageBytes must be at least 1024, got " + max);
            }
            this.maxMessageBytes = max;
            return this;
        }

        public Gateway build() {
            return new Gateway(this);
        }
    }
}
