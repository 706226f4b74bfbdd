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
    V2024_11_05("2024-11-05", false, JsonRpcError.MCP_RESOURCE_NOT_FOUND),
    V2025_03_26("2025-03-26", true, JsonRpcError.MCP_RESOURCE_NOT_FOUND),
    V2025_06_18("2025-06-18", false, JsonRpcError.MCP_RESOURCE_NOT_FOUND),
    V2025_11_25("2025-11-25", false, JsonRpcError.MCP_RESOURCE_NOT_FOUND);

    private final String wire;
    private final boolean batching;
    private final int resourceNotFoundCode;

    ProtocolVersion(String wire, boolean batching, int resourceNotFoundCode) {
        this.wire = wire;
        this.batching = batching;
        this.resourceNotFoundCode = resourceNotFoundCode;
    }

    public String wire() {
        return wire;
    }

    /** Only 2025-03-26 allows JSON-RPC batches; later versions removed them. */
    public boolean allowsBatches() {
        return batching;
    }

    /** The code for an unknown resource URI, as this version's specification defines it. */
    public int resourceNotFoundCode() {
        return resourceNotFoundCode;
    }

    public static ProtocolVersion latest() {
        return V2025_11_25;
    }

    public static Optional<ProtocolVersion> fromWire(String wire) {
        return Arrays.stream(values()).filter(v -> v.wire.equals(wire)).findFirst();
    }

    public static List<String> supportedWire() {
        return Arrays.stream(values()).map(ProtocolVersion::wire).toList();
    }

    /**
     * The lifecycle page's rule: answer with the requested version if supported, otherwise with the
     * latest this side supports (the client then decides whether to continue).
     */
    public static ProtocolVersion negotiate(String requested) {
        return fromWire(requested).orElse(latest());
    }
}
