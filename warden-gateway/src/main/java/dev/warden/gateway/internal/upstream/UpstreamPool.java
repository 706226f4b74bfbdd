package dev.warden.gateway.internal.upstream;

import dev.warden.client.ClientTelemetry;
import dev.warden.client.McpClient;
import dev.warden.core.json.Json;
import dev.warden.core.mcp.ProtocolVersion;
import dev.warden.core.transport.Transport;
import dev.warden.gateway.config.Upstream;
import dev.warden.gateway.internal.limits.ConnectionSlots;
import dev.warden.gateway.internal.metrics.GatewayMetrics;
import dev.warden.telemetry.Channel;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import tools.jackson.databind.node.ObjectNode;

/**
 * The gateway's connections to one upstream, each holding a place among its {@code
 * maxConnections}: the first (made with the capabilities of the first client to need it, where
 * resource subscriptions are kept), one per other set of asking capabilities (sampling,
 * elicitation, roots) its session-based clients declare, closed when idle, and for stateless
 * clients one in their version when the upstream speaks it.
 */
public final class UpstreamPool {

    private static final System.Logger LOG = System.getLogger(UpstreamPool.class.getName());

    /** Makes the builder of a connection whose questions go to {@code askers}. */
    @FunctionalInterface
    interface Dialer {
        McpClient.Builder builder(ProtocolVersion version, ObjectNode clientCapabilities, Askers askers);
    }

    private final Upstream spec;
    private final ConnectionSlots slots;
    private final GatewayMetrics metrics;
    private final Dialer dialer;
    private final QuestionRouting questions;
    private final InstantSource clock;
    /** Whether a connected client may still use the connection for these asking capabilities. */
    private final Predicate<String> wanted;
    /**
     * Told of the first connection before it is handed to anyone, so whoever finds it finds what
     * this started too (the link's learning); it must not block: the pool is locked.
     */
    private final Consumer<McpClient> firstConnected;
    /** Told when the first connection turns out to speak the stateless version (it then listens for news). */
    private final Runnable statelessConnected;
    private final IdleReaper reaper;
    /** Guards making and closing connections. */
    private final Object connecting = new Object();
    private volatile boolean closed;
    /** The connections this pool made and holds a place in {@link #slots} for, until it closes them. */
    private final Set<McpClient> held = ConcurrentHashMap.newKeySet();
    private volatile McpClient first;
    /** The first connection's declared asking capabilities, as {@link #asking(ObjectNode)} names them. */
    private volatile String firstAsking = "";
    /** Session-based connections besides the first, by the asking capabilities their clients declare (at most seven). */
    private final ConcurrentHashMap<String, Extra> others = new ConcurrentHashMap<>();
    /** A second, stateless connection for stateless clients, if the upstream speaks that version too. */
    private volatile McpClient statelessSession;
    private volatile boolean statelessRefused;

    /** One hand-out of an extra connection (each a new object, so a hand-out is seen even at the same instant). */
    private record HandOut(Instant at) {
    }

    /** An extra connection, and when it was last handed to a caller. */
    private record Extra(McpClient client, AtomicReference<HandOut> handedOut) {

        Extra(McpClient client, Instant now) {
            this(client, new AtomicReference<>(new HandOut(now)));
        }

        McpClient handOut(Instant now) {
            handedOut.set(new HandOut(now));
            return client;
        }
    }

    UpstreamPool(Upstream spec, ConnectionSlots slots, GatewayMetrics metrics, Dialer dialer,
            QuestionRouting questions, InstantSource clock, Predicate<String> wanted,
            Consumer<McpClient> firstConnected, Runnable statelessConnected) {
        this.spec = spec;
        this.slots = slots;
        this.metrics = metrics;
        this.dialer = dialer;
        this.questions = questions;
        this.clock = clock;
        this.wanted = wanted;
        this.firstConnected = firstConnected;
        this.statelessConnected = statelessConnected;
        this.reaper = new IdleReaper(spec.name(), spec.closeIdleAfter(), this::closeIdle);
    }

    /** What the upstream's connections run over, as spans name it: known once one was made. */
    private volatile Channel channel = Channel.inProcess();

    /** See {@link UpstreamLink#channel}. */
    Channel channel() {
        return channel;
    }

    /** See {@link UpstreamLink#client}. */
    McpClient client(ObjectNode clientCapabilities) {
        McpClient primary = primary(clientCapabilities);
        return primary.protocolVersion().stateless() ? primary : sessionFor(clientCapabilities);
    }

    /** The connection {@link #client(ObjectNode)} would give, if it is connected; never connects. */
    Optional<McpClient> connectedFor(ObjectNode clientCapabilities) {
        McpClient primary = first;
        if (primary == null || primary.protocolVersion().stateless()
                || asking(clientCapabilities).equals(firstAsking)) {
            return Optional.ofNullable(primary);
        }
        return Optional.ofNullable(others.get(asking(clientCapabilities))).map(Extra::client);
    }

    /** The first connection if it is connected already; never connects. */
    Optional<McpClient> connected() {
        return Optional.ofNullable(first);
    }

    /** Whether the upstream speaks a stateless version (2026-07-28): no session, so the gateway bridges. */
    boolean speaksStateless() {
        McpClient c = first;
        return c != null && c.protocolVersion().stateless();
    }

    boolean closed() {
        return closed;
    }

    /** See {@link UpstreamLink#primary}. */
    McpClient primary(ObjectNode clientCapabilities) {
        McpClient c = first;
        if (c != null) {
            return c;
        }
        synchronized (connecting) {
            if (first == null) {
                if (closed) {
                    throw new IllegalStateException("the gateway is closing");
                }
                // The newest session-based version first (logging levels and subscriptions then cross as
                // they are); an upstream that only speaks the stateless one is met there and bridged.
                Askers mine = questions.fresh();
                McpClient connected = connect(dialer.builder(ProtocolVersion.latestSessionBased(), clientCapabilities,
                        mine));
                questions.registered(connected, mine);
                firstAsking = asking(clientCapabilities);
                firstConnected.accept(connected);
                first = connected;
                LOG.log(System.Logger.Level.INFO, "upstream {0} connected ({1})", spec.name(),
                        connected.protocolVersion().wire());
                if (connected.protocolVersion().stateless()) {
                    statelessConnected.run();
                }
            }
            return first;
        }
    }

    /** See {@link UpstreamLink#clientForStateless}. */
    McpClient clientForStateless(ObjectNode clientCapabilities) {
        McpClient primary = primary(allAsking());
        if (primary.protocolVersion().stateless()) {
            return primary;
        }
        if (statelessRefused) {
            return sessionFor(clientCapabilities);
        }
        McpClient c = statelessSession;
        if (c != null) {
            return c;
        }
        synchronized (connecting) {
            if (statelessSession == null && !statelessRefused && !closed) {
                probeStateless();
            }
            if (statelessSession != null) {
                return statelessSession;
            }
        }
        return sessionFor(clientCapabilities);
    }

    /** Asks the upstream for the stateless version once, with server/discover on a connection of its own. */
    private void probeStateless() {
        try {
            Askers probeAskers = questions.fresh();
            McpClient probe = connect(dialer.builder(ProtocolVersion.V2026_07_28, allAsking(), probeAskers));
            if (probe.protocolVersion().stateless()) {
                statelessSession = questions.registered(probe, probeAskers);
                LOG.log(System.Logger.Level.INFO, "upstream {0} also connected ({1}) for stateless clients",
                        spec.name(), probe.protocolVersion().wire());
            } else {
                // Session-based after all, declaring every asking capability: kept for the
                // stateless clients that declare them all, unless the first connection did.
                String all = asking(allAsking());
                if (all.equals(firstAsking) || others.containsKey(all)) {
                    disconnect(probe);
                } else {
                    others.put(all, new Extra(questions.registered(probe, probeAskers), clock.instant()));
                }
                statelessRefused = true;
            }
        } catch (ConnectionSlots.AtCapacity e) {
            throw e; // not an answer about the stateless version: asked again later
        } catch (RuntimeException e) {
            statelessRefused = true;
            LOG.log(System.Logger.Level.DEBUG, "upstream {0} does not speak the stateless version", spec.name());
        }
    }

    /** What a connection for stateless clients declares while the gateway does not yet know who asks: all of it. */
    private static ObjectNode allAsking() {
        ObjectNode all = Json.object();
        all.putObject("sampling");
        all.putObject("elicitation");
        all.putObject("roots");
        return all;
    }

    /**
     * The session-based connection that declared exactly the sampling, elicitation and roots this
     * client declares (the first connection, if that is it). Shared by every client declaring the same.
     */
    private McpClient sessionFor(ObjectNode clientCapabilities) {
        String key = asking(clientCapabilities);
        McpClient primary = first;
        if (primary != null && key.equals(firstAsking)) {
            return primary;
        }
        Extra extra = others.get(key);
        if (extra != null) {
            McpClient c = extra.handOut(clock.instant());
            // Still there after the use was noted: closeIdle() will see that use (it removes before it looks).
            if (others.get(key) == extra) {
                return c;
            }
        }
        synchronized (connecting) {
            extra = others.get(key);
            if (extra == null) {
                if (closed) {
                    throw new IllegalStateException("the gateway is closing");
                }
                Askers mine = questions.fresh();
                McpClient c = connect(dialer.builder(ProtocolVersion.latestSessionBased(), clientCapabilities, mine));
                extra = new Extra(questions.registered(c, mine), clock.instant());
                others.put(key, extra);
                LOG.log(System.Logger.Level.INFO, "upstream {0} connected again, for clients offering [{1}]",
                        spec.name(), key);
                reaper.start();
            }
            return extra.handOut(clock.instant());
        }
    }

    /**
     * Closes the extra connections (not the first, which keeps the subscriptions) that no connected
     * session-based client declares the capabilities of, that carry no request, and that were not
     * handed out for {@link Upstream#closeIdleAfter()}: for stdio a process each, which would
     * otherwise stay for as long as the gateway runs. A client that needs one again connects anew.
     */
    private void closeIdle() {
        Instant now = clock.instant();
        List<McpClient> idle = new ArrayList<>();
        synchronized (connecting) {
            for (Map.Entry<String, Extra> entry : List.copyOf(others.entrySet())) {
                String key = entry.getKey();
                Extra extra = entry.getValue();
                HandOut used = extra.handedOut().get();
                if (now.isBefore(used.at().plus(spec.closeIdleAfter())) || questions.busy(extra.client())
                        || wanted.test(key)) {
                    continue;
                }
                others.remove(key, extra);
                if (extra.handedOut().get() != used) {
                    others.put(key, extra); // handed out meanwhile (sessionFor noted it before looking again)
                    continue;
                }
                questions.closed(extra.client());
                idle.add(extra.client());
                LOG.log(System.Logger.Level.INFO, "upstream {0}: closing its connection for clients offering [{1}],"
                        + " unused for {2}", spec.name(), key, spec.closeIdleAfter());
            }
        }
        idle.forEach(this::disconnect); // outside the lock: stopping a process may take a moment
    }

    /**
     * Connects with a place among the upstream's {@code maxConnections}, or is refused
     * ({@link ConnectionSlots.AtCapacity}, counted in the metrics) when every place is taken.
     */
    private McpClient connect(McpClient.Builder builder) {
        try {
            slots.take();
        } catch (ConnectionSlots.AtCapacity e) {
            metrics.limitRefused(spec.name(), "maxConnections");
            LOG.log(System.Logger.Level.WARNING, "upstream {0}: a connection refused, {1} are open (maxConnections)",
                    spec.name(), spec.limits().maxConnections());
            throw e;
        }
        try {
            McpClient c = builder.connect(() -> {
                Transport transport = spec.connector().get();
                channel = ClientTelemetry.channelOf(transport); // the same kind each time: the upstream's
                return transport;
            });
            held.add(c);
            return c;
        } catch (RuntimeException e) {
            slots.give();
            throw e;
        }
    }

    /** Closes a connection this pool made, giving its place back. */
    private void disconnect(McpClient c) {
        try {
            c.close();
        } finally {
            if (held.remove(c)) {
                slots.give();
            }
        }
    }

    /** The asking capabilities (sampling, elicitation, roots) a client declares, sorted, comma-separated. */
    public static String asking(ObjectNode clientCapabilities) {
        return Stream.of("elicitation", "roots", "sampling").filter(clientCapabilities::has)
                .collect(Collectors.joining(","));
    }

    /** Closes every connection; none is made after. The first goes last (the subscriptions' stream is closed before it). */
    void close(Runnable beforeFirst) {
        closed = true;
        reaper.stop();
        others.values().forEach(extra -> disconnect(extra.client()));
        McpClient second = statelessSession;
        if (second != null) {
            disconnect(second);
        }
        beforeFirst.run();
        McpClient c = first;
        if (c != null) {
            disconnect(c);
        }
    }
}
