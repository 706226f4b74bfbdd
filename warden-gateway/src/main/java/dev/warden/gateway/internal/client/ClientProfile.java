package dev.warden.gateway.internal.client;

import dev.warden.core.identity.Caller;
import dev.warden.core.json.Json;
import dev.warden.core.mcp.Logging;
import dev.warden.core.mcp.ProtocolVersion;
import dev.warden.core.protocol.StatelessRequests;
import dev.warden.core.transport.AuthenticatedPeer;
import dev.warden.core.transport.PeerAddress;
import dev.warden.core.transport.RequestHeaders;
import dev.warden.core.transport.Transport;
import dev.warden.gateway.internal.failure.ErrorPipeline;
import dev.warden.gateway.internal.failure.PrintableName;
import dev.warden.gateway.internal.limits.ClientKey;
import dev.warden.gateway.internal.limits.ClientRates;
import dev.warden.gateway.internal.upstream.UpstreamLink;
import dev.warden.gateway.internal.upstream.UpstreamPool;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Who is on the other end of one client connection, as far as the gateway acts on it: its
 * capabilities and name (from initialize, or from each stateless request's envelope), who is
 * calling (the authenticated caller its transport knows, if any), who it is for its rate and
 * parked calls (that caller's subject, else its address; never the name it gives), whether it is
 * stateless, and the log level it wants. Every field is written by one request and read by others: volatile.
 */
public final class ClientProfile {

    private static final AtomicLong CONNECTIONS = new AtomicLong();

    private final long number = CONNECTIONS.incrementAndGet();
    /** This connection, as the holder of its calls' places when it is a session (see {@link #shareKey()}). */
    private final ClientKey session = new ClientKey.Connection(number);
    private final ClientRates rates;
    /** The HTTP request's headers, for a stateless request that arrived over HTTP. */
    private final Optional<RequestHeaders> headers;
    /** The transport that knows the caller: its principal is fixed, its scopes may grow (a step-up). */
    private final Optional<AuthenticatedPeer> peer;
    /** The transport's caller last read, and the same without its token. */
    private volatile Stripped stripped = new Stripped(null, Optional.empty());

    private record Stripped(Caller from, Optional<Caller> caller) {
    }
    private volatile ObjectNode capabilities = Json.object();
    private volatile String name = "client#" + number;
    private volatile ClientKey key;
    /** Calls this client may make per period, for all upstreams together (shared by all its connections). */
    private volatile Optional<ClientRates.Rated> rate;
    private volatile boolean stateless;
    private volatile boolean settled;
    /** The level the client set: stateless upstreams have no session to keep it, so it travels with each request. */
    private volatile Optional<Logging.Level> logLevel = Optional.empty();

    /** What this connection's caller was shown or told (its roots, its results): see {@link ShownToCaller}. */
    private final ShownToCaller shown = new ShownToCaller();

    public ShownToCaller shown() {
        return shown;
    }

    public ClientProfile(Transport downstream, ClientRates rates) {
        this.rates = rates;
        this.peer = downstream instanceof AuthenticatedPeer a ? Optional.of(a) : Optional.empty();
        Optional<Caller> caller = caller();
        this.key = caller.isPresent() ? new ClientKey.Subject(caller.get().kind(), caller.get().issuer(),
                caller.get().subject())
                : downstream instanceof PeerAddress p && p.peerAddress() != null && !p.peerAddress().isEmpty()
                ? new ClientKey.Address(p.peerAddress()) : new ClientKey.Connection(number);
        this.rate = rates.of(key);
        this.headers = downstream instanceof RequestHeaders h ? Optional.of(h) : Optional.empty();
    }

    /** Whether this connection's initialize was answered: its terms are settled once ({@link dev.warden.gateway.internal.GatewayOffer#initialize}). */
    public boolean settled() {
        return settled;
    }

    public void settle() {
        settled = true;
    }

    /** The client's initialize: what it declares, and its name (for the audit records). */
    public void initialized(JsonNode params) {
        capabilities = params.path("capabilities") instanceof ObjectNode caps ? caps.deepCopy() : Json.object();
        name = PrintableName.of(params.path("clientInfo").path("name").asString("client")) + "#" + number;
    }

    /**
     * A stateless request speaks for its client: its capabilities and name (there was no
     * initialize), and the log level it wants for this request's messages.
     */
    public void adopt(Optional<JsonNode> params) {
        stateless = true;
        JsonNode meta = StatelessRequests.meta(params).map(JsonNode.class::cast).orElseGet(Json::object);
        if (meta.get(ProtocolVersion.META_CLIENT_CAPABILITIES) instanceof ObjectNode caps) {
            capabilities = caps.deepCopy();
        }
        String given = meta.path(ProtocolVersion.META_CLIENT_INFO).path("name").asString("");
        if (!given.isEmpty()) {
            name = PrintableName.of(given) + "#" + number;
        }
        if (key instanceof ClientKey.Connection) {
            key = new ClientKey.Unknown(); // a stateless request's own connection ends with it
            rate = rates.of(key);
        }
        logLevel = StatelessRequests.logLevel(params);
    }

    /** The name the audit records give this client: the one it gave, and this connection's number. */
    public String name() {
        return name;
    }

    public ClientKey key() {
        return key;
    }

    /** This connection itself (what a task's status news is kept for). */
    public ClientKey connection() {
        return session;
    }

    /** {@code link}'s error pipeline as this client meets it: the incidents it records carry {@link #caller}. */
    public ErrorPipeline pipeline(UpstreamLink link) {
        return link.pipeline().servedTo(this::caller);
    }

    /** Who is calling, when the transport authenticated the caller. */
    public Optional<Caller> caller() {
        Optional<Caller> now = peer.flatMap(AuthenticatedPeer::caller);
        Stripped last = stripped;
        if (now.isEmpty() || last.from() != now.get()) {
            // Made again only when the transport's caller changes (a new token), not on every read:
            // the access rules read it for each item of a listing.
            last = new Stripped(now.orElse(null), now.map(Caller::withoutToken));
            stripped = last;
        }
        return last.caller();
    }

    /**
     * Who this connection's calls count as for each upstream's per-client concurrency
     * ({@code maxConcurrentPerClient}), in every call shape alike: an authenticated caller by its
     * {@link #key()}, so all its sessions and stateless requests share one share (a new session or
     * request is not a new share, and one caller cannot take every place while another waits).
     * Without one, a session by itself, so sessions from one address (every local client shares
     * 127.0.0.1) do not share one; and a stateless (2026-07-28) request none: only its address
     * could tell its client, and many clients stand behind one address (the conformance suite's
     * 2026-07-28 scenarios, a NAT). Such requests come only where the gateway needs no
     * authentication (loopback), and are bounded per address by parked calls and the rate.
     */
    public Optional<ClientKey> shareKey() {
        if (caller().isPresent()) {
            return Optional.of(key);
        }
        return stateless ? Optional.empty() : Optional.of(session);
    }

    public ObjectNode capabilities() {
        return capabilities;
    }

    public Optional<RequestHeaders> headers() {
        return headers;
    }

    public boolean stateless() {
        return stateless;
    }

    public Optional<Logging.Level> logLevel() {
        return logLevel;
    }

    public void logLevel(Logging.Level level) {
        logLevel = Optional.of(level);
    }

    /** Whether calls of this client are counted against a rate of its own. */
    public boolean rated() {
        return rate.isPresent();
    }

    /** Takes one call from this client's rate: empty if it may call, else how long until it may. */
    public Optional<Duration> refusedByRate() {
        return rate.flatMap(ClientRates.Rated::take);
    }

    /**
     * What the gateway declares to an upstream it connects for this client: a session-based
     * client's own sampling, elicitation and roots capabilities; for a stateless client all three
     * (that connection serves its discover and listen requests; the others go on one declaring
     * what each request declares, see {@link UpstreamLink#clientForStateless}).
     */
    public ObjectNode upstreamCapabilities() {
        if (!stateless) {
            return capabilities;
        }
        ObjectNode all = Json.object();
        for (String capability : List.of("sampling", "elicitation", "roots")) {
            all.putObject(capability);
        }
        return all;
    }

    /**
     * For a session-based client, the asking capabilities its upstream connections declare (see
     * {@link UpstreamPool#asking}): a connection one of them may still use is not idle. Empty for a
     * stateless client, which holds no connection between requests.
     */
    public Optional<String> sessionAsking() {
        return stateless ? Optional.empty() : Optional.of(UpstreamPool.asking(capabilities));
    }

    /**
     * A stateless upstream learns who asks from each request: this client's capabilities (so it
     * asks only for input this client can give) and the log level it set.
     */
    public ObjectNode withEnvelope(ObjectNode params) {
        ObjectNode copy = params.deepCopy();
        ObjectNode meta = copy.get("_meta") instanceof ObjectNode m ? m : copy.putObject("_meta");
        meta.set(ProtocolVersion.META_CLIENT_CAPABILITIES, capabilities.deepCopy());
        logLevel.ifPresent(level -> meta.put(ProtocolVersion.META_LOG_LEVEL, level.wire()));
        return copy;
    }
}
