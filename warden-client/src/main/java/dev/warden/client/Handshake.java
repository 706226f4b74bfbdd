package dev.warden.client;

import dev.warden.core.error.TransportException;
import dev.warden.core.error.AuthorizationFailedException;
import dev.warden.core.error.ConnectionClosedException;
import dev.warden.core.error.IncompatiblePeerException;
import dev.warden.core.error.PeerErrorException;
import dev.warden.core.json.Json;
import dev.warden.core.jsonrpc.JsonRpcError;
import dev.warden.core.mcp.Implementation;
import dev.warden.core.mcp.Lifecycle;
import dev.warden.core.mcp.ProtocolVersion;
import dev.warden.core.session.RequestOptions;
import dev.warden.core.session.Session;
import dev.warden.core.transport.ProcessStartException;
import dev.warden.core.transport.ProcessTransport;
import dev.warden.core.transport.Transport;
import java.time.Duration;
import java.util.Comparator;
import java.util.Optional;
import java.util.function.Supplier;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Opens one connection: starts the transport and its session, then agrees on a version with the
 * server, statelessly ({@code server/discover}, 2026-07-28) where both speak it, else with
 * {@code initialize}.
 */
final class Handshake {

    private static final System.Logger LOG = System.getLogger(Handshake.class.getName());
    /** How long a server whose output ended is given to exit, to tell an exit from a stream that closed. */
    private static final Duration EXIT_WAIT = Duration.ofMillis(500);

    private final ClientConfig config;
    private final Supplier<Transport> connector;

    Handshake(ClientConfig config, Supplier<Transport> connector) {
        this.config = config;
        this.connector = connector;
    }

    /** The server process could not be started, or exited before it answered (see {@link Reconnector}). */
    static final class ServerDidNotStart extends TransportException {
        ServerDidNotStart(String message, Throwable cause) {
            super(message, cause, false);
        }
    }

    Connection open() {
        Transport transport;
        try {
            transport = connector.get();
        } catch (ProcessStartException e) {
            throw new ServerDidNotStart("The server could not be started (" + e.getMessage() + ")", e);
        }
        ClientTelemetry telemetry = new ClientTelemetry(transport, config.sessionTelemetry());
        Session session = session(transport, telemetry);
        session.start();
        try {
            ObjectNode capabilities = Json.object();
            config.handlers().keySet().forEach(method -> Lifecycle.capabilityFor(method).ifPresent(capabilities::putObject));
            if (config.protocolVersion().stateless()) {
                Optional<Connection> stateless = discover(session, transport, capabilities, config.protocolVersion());
                if (stateless.isPresent()) {
                    return telemetry.negotiated(stateless.get());
                }
            }
            return telemetry.negotiated(initialize(session, transport, capabilities));
        } catch (RuntimeException e) {
            // Asked before closing, which would end the process anyway.
            Optional<Integer> exited = e instanceof ConnectionClosedException && transport instanceof ProcessTransport p
                    ? p.exitCode(EXIT_WAIT) : Optional.empty();
            session.close();
            transport.close();
            if (exited.isPresent()) {
                throw new ServerDidNotStart("The server process exited with code " + exited.get()
                        + " before it answered", e);
            }
            throw e;
        }
    }

    /** The session, with this client's answers to the server's requests and its notification handler. */
    private Session session(Transport transport, ClientTelemetry telemetry) {
        Session.Builder builder = Session.builder(transport).defaultTimeout(config.requestTimeout())
                .boundary(config.boundary()).observer(telemetry.observer(config.telemetry(), config.traceHeadersFromMeta()));
        config.notifications().ifPresent(builder::onOtherNotification);
        config.handlers().forEach((method, handler) -> builder.onRequest(method, ctx -> {
            JsonNode params = ctx.params().orElseGet(Json::object);
            ObjectNode request = params instanceof ObjectNode o ? o : Json.object();
            ObjectNode result = handler.handle(request);
            return "elicitation/create".equals(method) ? Elicitation.withDefaults(request, result) : result;
        }));
        config.undeclared().forEach((method, handler) -> {
            if (!config.handlers().containsKey(method)) {
                builder.onRequest(method, ctx -> handler.handle(ctx.params().orElseGet(Json::object)
                        instanceof ObjectNode o ? o : Json.object()));
            }
        });
        return builder.build();
    }

    private Connection initialize(Session session, Transport transport, ObjectNode capabilities) {
        ProtocolVersion asked = config.protocolVersion().stateless() ? ProtocolVersion.latestSessionBased()
                : config.protocolVersion();
        JsonNode result;
        try {
            result = Calls.join(session.request(Lifecycle.INITIALIZE, Json.tree(new Lifecycle.InitializeParams(
                    asked.wire(), capabilities, config.info())), timeout()));
        } catch (PeerErrorException e) {
            // A server that speaks only stateless versions refuses initialize with -32022 and
            // its list: one this client speaks too is used instead of giving up.
            Optional<ProtocolVersion> stateless = statelessOffered(e);
            if (stateless.isPresent()) {
                Optional<Connection> c = discover(session, transport, capabilities, stateless.get());
                if (c.isPresent()) {
                    return c.get();
                }
            }
            throw e;
        }
        String wire = result.path("protocolVersion").asString("");
        ProtocolVersion version = ProtocolVersion.fromWire(wire).orElseThrow(() -> new IncompatiblePeerException(
                "The server chose a protocol version this client does not speak"));
        Implementation server = Calls.parse(result.path("serverInfo"), Implementation.class, "initialize");
        JsonNode caps = result.get("capabilities");
        transport.requestMetadata().ifPresent(m -> m.protocolVersion(version.wire()));
        session.allowBatches(version.allowsBatches());
        session.notify(Lifecycle.INITIALIZED, Json.object());
        return new Connection(session, transport, version, server, caps instanceof ObjectNode o ? o : Json.object(),
                instructions(result), Json.object());
    }

    /**
     * The stateless probe: {@code server/discover} in the newest version. A server that lists that
     * version is used statelessly; any other answer (an error, an HTTP refusal, an older version
     * list) means initialize, on a fresh connection for HTTP (a refused POST leaves nothing behind).
     */
    private Optional<Connection> discover(Session session, Transport transport, ObjectNode capabilities,
                                          ProtocolVersion wanted) {
        ObjectNode clientMeta = Json.object();
        clientMeta.put(ProtocolVersion.META_VERSION, wanted.wire());
        clientMeta.set(ProtocolVersion.META_CLIENT_CAPABILITIES, capabilities);
        clientMeta.set(ProtocolVersion.META_CLIENT_INFO, Json.tree(config.info()));
        ObjectNode params = Json.object();
        params.set("_meta", clientMeta.deepCopy());
        JsonNode result = null;
        for (int attempt = 1; result == null; attempt++) {
            try {
                result = Calls.join(session.request("server/discover", params, timeout()));
            } catch (AuthorizationFailedException e) {
                throw e;
            } catch (PeerErrorException e) {
                // -32022 lists what the server speaks: if that includes this version (a server that
                // refused the first request for its own reasons), ask once more; else initialize.
                boolean listed = e.error().code() == JsonRpcError.UNSUPPORTED_PROTOCOL_VERSION
                        && e.error().data().map(d -> d.path("supported")).stream().flatMap(JsonNode::valueStream)
                                .anyMatch(v -> v.asString("").equals(wanted.wire()));
                if (!listed || attempt > 1) {
                    LOG.log(System.Logger.Level.DEBUG, "server/discover refused; initializing instead");
                    return Optional.empty();
                }
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.DEBUG, "server/discover failed; initializing instead");
                return Optional.empty();
            }
        }
        boolean speaks = result.path("supportedVersions").valueStream()
                .anyMatch(v -> v.asString("").equals(wanted.wire()));
        if (!speaks) {
            return Optional.empty();
        }
        JsonNode serverInfo = result.path("_meta").path(ProtocolVersion.META_SERVER_INFO);
        Implementation server = serverInfo.isObject() ? Calls.parse(serverInfo, Implementation.class, "server/discover")
                : new Implementation("unknown", "unknown", Optional.empty());
        JsonNode caps = result.get("capabilities");
        transport.requestMetadata().ifPresent(m -> m.protocolVersion(wanted.wire()));
        return Optional.of(new Connection(session, transport, wanted, server,
                caps instanceof ObjectNode o ? o : Json.object(), instructions(result), clientMeta));
    }

    private RequestOptions timeout() {
        return RequestOptions.ofDefaults().withTimeout(config.requestTimeout());
    }

    private static Optional<String> instructions(JsonNode result) {
        return result.path("instructions").isString() ? Optional.of(result.get("instructions").stringValue())
                : Optional.empty();
    }

    /** The stateless version a -32022 refusal of initialize lists that this client speaks, newest first. */
    private static Optional<ProtocolVersion> statelessOffered(PeerErrorException e) {
        if (e.error().code() != JsonRpcError.UNSUPPORTED_PROTOCOL_VERSION) {
            return Optional.empty();
        }
        return e.error().data().map(d -> d.path("supported")).stream().flatMap(JsonNode::valueStream)
                .map(v -> ProtocolVersion.fromWire(v.asString(""))).flatMap(Optional::stream)
                .filter(ProtocolVersion::stateless).max(Comparator.naturalOrder());
    }
}
