package dev.warden.core.transport;

import dev.warden.core.headers.ParamHeaders;
import java.util.Map;

/**
 * What a transport that labels each request with metadata headers (Streamable HTTP) learns from
 * its client: what the frames alone do not say, or say only in a message the transport never
 * reads (an earlier {@code tools/list} answer). See {@link Transport#requestMetadata()}.
 */
public interface RequestMetadata {

    /** The version negotiated at initialize, sent as {@code MCP-Protocol-Version} from then on. */
    void protocolVersion(String version);

    /**
     * The tools' {@code x-mcp-header} annotations, by tool name (from a complete {@code tools/list}),
     * replacing those known: each call's annotated arguments are mirrored into {@code Mcp-Param-*}.
     */
    void paramHeaders(Map<String, ParamHeaders> byTool);

    /** Adds annotations from one more page of a listing (a proxy forwarding pages as they come). */
    void addParamHeaders(Map<String, ParamHeaders> byTool);
}
