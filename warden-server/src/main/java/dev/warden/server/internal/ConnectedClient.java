package dev.warden.server.internal;

import dev.warden.core.json.Json;
import dev.warden.core.mcp.Lifecycle;
import dev.warden.core.mcp.Logging;
import dev.warden.core.mcp.ProtocolVersion;
import dev.warden.core.protocol.StatelessRequests;
import dev.warden.core.session.RequestContext;
import dev.warden.core.session.Session;
import java.util.Optional;
import tools.jackson.databind.node.ObjectNode;

/**
 * The client of one connection as its request handlers see it: what {@code initialize} and
 * {@code logging/setLevel} established, and what each stateless request declares for itself in
 * its {@code _meta} instead.
 */
public final class ConnectedClient {

    private volatile Optional<ProtocolVersion> version = Optional.empty();
    private volatile Optional<ObjectNode> capabilities = Optional.empty();
    private volatile Logging.Level logLevel = Logging.Level.INFO;

    /** The negotiated version, once {@code initialize} has been answered. */
    public Optional<ProtocolVersion> version() {
        return version;
    }

    /** The capabilities declared at {@code initialize}. */
    public Optional<ObjectNode> capabilities() {
        return capabilities;
    }

    public Logging.Level logLevel() {
        return logLevel;
    }

    void capabilities(ObjectNode declared) {
        capabilities = Optional.of(declared);
    }

    void initialized(ProtocolVersion negotiated) {
        version = Optional.of(negotiated);
    }

    void logLevel(Logging.Level level) {
        logLevel = level;
    }

    /** The version a request speaks: its own (stateless versions) or the session's. */
    public Optional<ProtocolVersion> versionOf(RequestContext context) {
        Optional<ProtocolVersion> own = StatelessRequests.requestedVersion(context.params())
                .flatMap(ProtocolVersion::fromWire).filter(ProtocolVersion::stateless);
        return own.isPresent() ? own : version;
    }

    /** The client's capabilities for this request: from its {@code _meta} (stateless), else from initialize. */
    public Optional<ObjectNode> capabilitiesOf(RequestContext context) {
        if (StatelessRequests.requestedVersion(context.params()).isPresent()) {
            return StatelessRequests.clientCapabilities(context.params());
        }
        return capabilities;
    }

    /**
     * Sends a trusted log message about {@code context}'s request: for stateless requests only if
     * the request asked for logs ({@code _meta} logLevel) and at that level or above; otherwise at
     * the session's level.
     */
    public void log(RequestContext context, Logging.Level level, String logger, String trustedMessage) {
        if (StatelessRequests.requestedVersion(context.params()).isPresent()) {
            Optional<Logging.Level> wanted = StatelessRequests.logLevel(context.params());
            if (wanted.isEmpty() || !level.atLeast(wanted.get()) || context.session().isClosed()) {
                return;
            }
            send(context.session(), level, logger, trustedMessage);
            return;
        }
        log(context.session(), level, logger, trustedMessage);
    }

    /** Sends a trusted log message on {@code session} if the level the client chose allows it. */
    public void log(Session session, Logging.Level level, String logger, String trustedMessage) {
        if (!level.atLeast(logLevel) || session.isClosed()) {
            return;
        }
        send(session, level, logger, trustedMessage);
    }

    /**
     * A request to the client outside any request of its own (session-based versions), awaited:
     * the client must have declared the capability it needs at initialize.
     */
    public ObjectNode request(Session session, String method, ObjectNode params) throws Exception {
        Optional<String> capability = Lifecycle.capabilityFor(method);
        if (capability.isPresent() && capabilities.map(c -> c.get(capability.get())).isEmpty()) {
            throw new IllegalStateException("the client did not declare the " + capability.get() + " capability");
        }
        return session.request(method, params).awaitObject("The request was cancelled");
    }

    private static void send(Session session, Logging.Level level, String logger, String trustedMessage) {
        try {
            session.notify(Logging.MESSAGE, Json.tree(new Logging.MessageParams(level, Optional.of(logger),
                    Json.mapper().getNodeFactory().stringNode(trustedMessage))));
        } catch (RuntimeException e) {
            // the client went away; logging is best effort
        }
    }
}
