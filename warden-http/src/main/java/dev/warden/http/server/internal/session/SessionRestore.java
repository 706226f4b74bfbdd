package dev.warden.http.server.internal.session;

import dev.warden.core.json.Json;
import dev.warden.http.server.internal.seal.SealedSession;
import dev.warden.http.server.internal.seal.SessionSeal;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.UUID;
import tools.jackson.databind.node.ObjectNode;

/**
 * Restoring a portable session on a replica that never saw it: its sealed id opened, then the
 * client's initialize and {@code notifications/initialized} replayed into the freshly connected
 * server, so it holds what the first replica's held after the handshake (version, the client's
 * capabilities and name). The replayed initialize's answer has no stream to go to and is dropped.
 */
final class SessionRestore {

    private static final System.Logger LOG = System.getLogger(SessionRestore.class.getName());

    private SessionRestore() {
    }

    /** A sealed id opened: what it carries, and the instant (epoch milliseconds) after which it no longer opens. */
    record Opened(SealedSession state, long notAfterMillis) {
    }

    /** What the id seals; empty (the reason logged, never the id) when it does not open here. */
    static Optional<Opened> open(SessionSeal seal, String id) {
        try {
            SessionSeal.Unsealed unsealed = seal.open(id);
            Optional<SealedSession> state = SealedSession.from(unsealed.value());
            if (state.isEmpty()) {
                LOG.log(System.Logger.Level.DEBUG, "session seal: the sealed state is not in a known format");
            }
            return state.map(s -> new Opened(s, unsealed.notAfterMillis()));
        } catch (SessionSeal.Rejected e) {
            LOG.log(System.Logger.Level.DEBUG, "a session id was not restored: {0}", e.getMessage());
            return Optional.empty();
        }
    }

    /** Replays the handshake into the session's server, whose listener {@code onSession} has just set. */
    static void replay(HttpSessionTransport transport, SealedSession state) {
        ObjectNode initialize = Json.object();
        initialize.put("jsonrpc", "2.0");
        // Unguessable: a client's own request with the same id in this session would be refused as a
        // duplicate, or take this one's answer.
        initialize.put("id", "warden-restore-" + UUID.randomUUID());
        initialize.put("method", "initialize");
        initialize.set("params", state.initialize().deepCopy());
        transport.deliver(Json.write(initialize).getBytes(StandardCharsets.UTF_8));
        transport.deliver("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"
                .getBytes(StandardCharsets.UTF_8));
        transport.restored();
    }
}
