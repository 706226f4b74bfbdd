package dev.warden.telemetry;

import io.opentelemetry.api.common.AttributeKey;
import java.util.List;
import java.util.Optional;

/**
 * The one table of telemetry names: the OpenTelemetry semantic conventions for MCP
 * (semantic-conventions-genai, docs/gen-ai/mcp.md and model/mcp) and, where they are silent,
 * Warden's own {@code warden.*} keys. Nothing else in Warden spells one of these strings.
 * The reference page: docs/reference/telemetry.md.
 */
public final class McpNames {

    private McpNames() {
    }

    /** The instrumentation scope of every span and metric Warden makes. */
    public static final String SCOPE = "dev.warden";

    // ---- attributes the conventions define ------------------------------------------------------
    public static final AttributeKey<String> MCP_METHOD_NAME = AttributeKey.stringKey("mcp.method.name");
    public static final AttributeKey<String> MCP_PROTOCOL_VERSION = AttributeKey.stringKey("mcp.protocol.version");
    public static final AttributeKey<String> MCP_SESSION_ID = AttributeKey.stringKey("mcp.session.id");
    public static final AttributeKey<String> MCP_RESOURCE_URI = AttributeKey.stringKey("mcp.resource.uri");
    public static final AttributeKey<String> JSONRPC_REQUEST_ID = AttributeKey.stringKey("jsonrpc.request.id");
    public static final AttributeKey<String> GEN_AI_TOOL_NAME = AttributeKey.stringKey("gen_ai.tool.name");
    public static final AttributeKey<String> GEN_AI_PROMPT_NAME = AttributeKey.stringKey("gen_ai.prompt.name");
    public static final AttributeKey<String> GEN_AI_OPERATION_NAME = AttributeKey.stringKey("gen_ai.operation.name");
    /** Opt-in ({@link McpTelemetry.Builder#captureToolCalls}), and only as the sanitizer left it. */
    public static final AttributeKey<String> GEN_AI_TOOL_CALL_ARGUMENTS =
            AttributeKey.stringKey("gen_ai.tool.call.arguments");
    /** Opt-in ({@link McpTelemetry.Builder#captureToolCalls}), and only as the sanitizer left it. */
    public static final AttributeKey<String> GEN_AI_TOOL_CALL_RESULT = AttributeKey.stringKey("gen_ai.tool.call.result");
    public static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");
    public static final AttributeKey<String> RPC_RESPONSE_STATUS_CODE = AttributeKey.stringKey("rpc.response.status_code");
    public static final AttributeKey<String> NETWORK_TRANSPORT = AttributeKey.stringKey("network.transport");
    public static final AttributeKey<String> NETWORK_PROTOCOL_NAME = AttributeKey.stringKey("network.protocol.name");
    public static final AttributeKey<String> NETWORK_PROTOCOL_VERSION = AttributeKey.stringKey("network.protocol.version");
    public static final AttributeKey<String> SERVER_ADDRESS = AttributeKey.stringKey("server.address");
    public static final AttributeKey<Long> SERVER_PORT = AttributeKey.longKey("server.port");
    /** The HTTP peer a server span's message came from (a session's: of the POST that opened it). */
    public static final AttributeKey<String> CLIENT_ADDRESS = AttributeKey.stringKey("client.address");
    public static final AttributeKey<Long> CLIENT_PORT = AttributeKey.longKey("client.port");
    /** The HTTP conventions' status, on a POST refused before a session: it tells a 401 from a 503 of one JSON-RPC code. */
    public static final AttributeKey<Long> HTTP_RESPONSE_STATUS_CODE = AttributeKey.longKey("http.response.status_code");

    // ---- Warden's own, where the conventions are silent -----------------------------------------
    /** Warden's symbolic code ({@code VALIDATION_ERROR}, ...), as {@code error.data.code} or the tool error carried it. */
    public static final AttributeKey<String> WARDEN_ERROR_CODE = AttributeKey.stringKey("warden.error.code");
    /** The ref the peer was given, under which the operator finds the incident. */
    public static final AttributeKey<String> WARDEN_REF = AttributeKey.stringKey("warden.ref");
    /** The gateway's name for the upstream a call went to. */
    public static final AttributeKey<String> WARDEN_UPSTREAM = AttributeKey.stringKey("warden.upstream");
    /** The replica a parked call's round was taken to, the one holding the call (its configured id). */
    public static final AttributeKey<String> WARDEN_REPLICA = AttributeKey.stringKey("warden.replica");

    // ---- values ---------------------------------------------------------------------------------
    /** {@code gen_ai.operation.name} of {@code tools/call}, and of nothing else. */
    public static final String EXECUTE_TOOL = "execute_tool";
    /** {@code error.type} of a {@code CallToolResult} with {@code isError: true}. */
    public static final String TOOL_ERROR = "tool_error";
    /** {@code network.transport} over stdio. */
    public static final String PIPE = "pipe";
    /** {@code network.transport} over HTTP. */
    public static final String TCP = "tcp";
    /**
     * The conventions' value for what instrumentation does not know: a method MCP does not define
     * ({@code mcp.method.name}), a failure of no kind Warden names ({@code error.type}).
     */
    public static final String OTHER = "_OTHER";
    /** {@code network.protocol.name} over HTTP. */
    public static final String HTTP = "http";

    // ---- metrics --------------------------------------------------------------------------------
    public static final String SERVER_OPERATION_DURATION = "mcp.server.operation.duration";
    public static final String CLIENT_OPERATION_DURATION = "mcp.client.operation.duration";
    public static final String SERVER_SESSION_DURATION = "mcp.server.session.duration";
    public static final String CLIENT_SESSION_DURATION = "mcp.client.session.duration";
    /** The four histograms are in seconds (UCUM {@code s}). */
    public static final String SECONDS = "s";
    /** The conventions' ExplicitBucketBoundaries advice for the four histograms. */
    public static final List<Double> DURATION_BUCKETS =
            List.of(0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0);

    // ---- _meta propagation ----------------------------------------------------------------------
    /**
     * The {@code params} member the context travels in (SEP-414: its W3C keys unprefixed, the same
     * names as the HTTP headers, {@link dev.warden.core.transport.RequestHeaders#TRACE_CONTEXT}).
     */
    public static final String META = "_meta";

    /**
     * The span name: {@code "{mcp.method.name} {target}"}, the target being the tool or prompt
     * name; just the method when there is none (a resource URI is high-cardinality, so never).
     */
    public static String spanName(String method, Optional<String> target) {
        return target.map(t -> method + " " + t).orElse(method);
    }
}
