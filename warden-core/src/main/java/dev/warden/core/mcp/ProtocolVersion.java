package dev.warden.core.mcp;

import dev.warden.core.jsonrpc.JsonRpcError;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The MCP protocol versions this build speaks, oldest first. What differs between them that the
 * engine must know lives here, so that no other code compares version strings.
 */
public enum ProtocolVersion {
    V2024_11_05("2024-11-05", true, JsonRpcError.MCP_RESOURCE_NOT_FOUND),
    V2025_03_26("2025-03-26", true, JsonRpcError.MCP_RESOURCE_NOT_FOUND),
    V2025_06_18("2025-06-18", false, JsonRpcError.MCP_RESOURCE_NOT_FOUND),
    V2025_11_25("2025-11-25", false, JsonRpcError.MCP_RESOURCE_NOT_FOUND),
    /** Stateless: no initialize, no sessions; every request names its version in {@code _meta}. */
    V2026_07_28("2026-07-28", false, JsonRpcError.INVALID_PARAMS);

    private final String wire;
    private final boolean batching;
    private final int resourceNotFoundCode;

    ProtocolVersion(String wire, boolean batching, int resourceNotFoundCode) {
        this.wire = wire;
        this.batching = batching;
        this.resourceNotFoundCode = resourceNotFoundCode;
    }

    /** The request's {@code _meta} key that carries its protocol version (2026-07-28 on). */
    public static final String META_VERSION = "io.modelcontextprotocol/protocolVersion";
    /** The request's {@code _meta} key that carries the client's capabilities (2026-07-28 on). */
    public static final String META_CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
    public static final String META_CLIENT_INFO = "io.modelcontextprotocol/clientInfo";
    public static final String META_LOG_LEVEL = "io.modelcontextprotocol/logLevel";
    public static final String META_SERVER_INFO = "io.modelcontextprotocol/serverInfo";

    /**
     * 2026-07-28 and later have no session: no initialize handshake, each request carries its
     * version and the client's capabilities.
     */
    public boolean stateless() {
        return this.compareTo(V2026_07_28) >= 0;
    }

    public String wire() {
        return wire;
    }

    /**
     * Whether JSON-RPC batches are allowed: in 2024-11-05 (which follows JSON-RPC 2.0 whole) and
     * 2025-03-26 (which says so); 2025-06-18 removed them.
     */
    public boolean allowsBatches() {
        return batching;
    }

    /** The code for an unknown resource URI, as this version's specification defines it. */
    public int resourceNotFoundCode() {
        return resourceNotFoundCode;
    }

    /** The newest version this build speaks. */
    public static ProtocolVersion latest() {
        return V2026_07_28;
    }

    /** The newest version negotiated by initialize (the versions with sessions). */
    public static ProtocolVersion latestSessionBased() {
        return V2025_11_25;
    }

    public static Optional<ProtocolVersion> fromWire(String wire) {
        return Arrays.stream(values()).filter(v -> v.wire.equals(wire)).findFirst();
    }

    public static List<String> supportedWire() {
        return Arrays.stream(values()).map(ProtocolVersion::wire).toList();
    }

    /**
     * The lifecycle page's rule for {@code initialize}: answer with the requested version if
     * supported, otherwise with the latest this side supports (the client then decides whether to
     * continue). Initialize only negotiates versions that have it: a stateless version asked for
     * there gets the newest session-based one.
     */
    public static ProtocolVersion negotiate(String requested) {
        return fromWire(requested).filter(v -> !v.stateless()).orElse(latestSessionBased());
    }
}
