package dev.warden.core.protocol;

import dev.warden.core.error.ProtocolException;
import dev.warden.core.json.Json;
import dev.warden.core.mcp.Implementation;
import dev.warden.core.mcp.Lifecycle;
import dev.warden.core.mcp.ProtocolVersion;
import dev.warden.core.session.RequestContext;
import java.util.Objects;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The server's half of agreeing on terms, for the SDK's server and the gateway alike: the
 * version {@code initialize} settles on and what the session then allows, the initialize
 * result, and the {@code server/discover} answer. What a side offers is its own; how it is
 * said is decided here only.
 */
public final class ServerHandshake {

    /** The stateless probe (2026-07-28): what a server speaks and offers, without a session. */
    public static final String DISCOVER = "server/discover";

    private ServerHandshake() {
    }

    /**
     * What a server says about itself at initialize and discover. Capabilities stay a tree: a
     * gateway passes through what its upstreams declare, keys it does not know included.
     */
    public record Offer(ObjectNode capabilities, Implementation serverInfo, Optional<String> instructions) {
        public Offer {
            Objects.requireNonNull(capabilities, "capabilities");
            Objects.requireNonNull(serverInfo, "serverInfo");
            instructions = Objects.requireNonNullElse(instructions, Optional.empty());
        }
    }

    /**
     * A connection's terms are settled once: {@code initialize} on one that already agreed
     * ({@code settled}) is refused with -32600 and changes nothing. One that failed may be
     * tried again, so a side counts a connection settled only once it answered initialize.
     */
    public static void firstOnly(boolean settled) {
        if (settled) {
            throw ProtocolException.invalidRequest("Invalid request: the session is already initialized");
        }
    }

    /**
     * {@code initialize} asked for {@code requested}: the version agreed by the lifecycle rule
     * ({@link ProtocolVersion#negotiate}), and the session of {@code context} set to it (batches
     * where that version has them).
     */
    public static ProtocolVersion agree(RequestContext context, String requested) {
        ProtocolVersion agreed = settled(requested);
        context.session().allowBatches(agreed.allowsBatches());
        return agreed;
    }

    /**
     * The version an {@code initialize} asking for {@code requested} settles on, without a
     * session to set: for a transport that follows the exchange (an HTTP session's stream
     * rules depend on it) while the server behind it answers through {@link #agree}.
     */
    public static ProtocolVersion settled(String requested) {
        return ProtocolVersion.negotiate(requested);
    }

    /** The result of {@code initialize}, once {@link #agree} settled the version. */
    public static JsonNode initializeResult(ProtocolVersion agreed, Offer offer) {
        return Json.tree(new Lifecycle.InitializeResult(agreed.wire(), offer.capabilities(), offer.serverInfo(),
                offer.instructions()));
    }

    /** {@code server/discover}: every version this build speaks, and what the server offers. */
    public static JsonNode discoverResult(Offer offer) {
        ObjectNode result = Json.object();
        ProtocolVersion.supportedWire().forEach(result.putArray("supportedVersions")::add);
        result.set("capabilities", offer.capabilities().deepCopy());
        offer.instructions().ifPresent(i -> result.put("instructions", i));
        return result;
    }
}
