package dev.warden.client.http;

import dev.warden.core.jsonrpc.JsonRpcMessage;
import dev.warden.core.headers.ParamHeaders;
import dev.warden.core.mcp.ProtocolVersion;
import dev.warden.core.transport.RequestHeaders;
import java.net.http.HttpRequest;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * The request-metadata headers 2026-07-28 requires (harmless to older servers), read from the
 * request the session built: the version from the body's {@code _meta}, {@code Mcp-Method},
 * {@code Mcp-Name} for calls, reads and prompts, and a call's {@code x-mcp-header} arguments as
 * {@code Mcp-Param-*}, in the {@code =?base64?…?=} form when not plain ASCII; and the W3C trace
 * context ({@code traceparent}, {@code tracestate}) its {@link #traceHeaders source} gives: only
 * what the client's telemetry put in {@code _meta}, never a context a caller forwarded; none unless set.
 */
final class RequestLabels {

    /** The tools' annotations, by name, from the last listing (a proxy adds page by page). */
    private volatile Map<String, ParamHeaders> paramHeaders = Map.of();
    private volatile Function<JsonRpcMessage.Request, Map<String, String>> traceHeaders = request -> Map.of();

    void traceHeaders(Function<JsonRpcMessage.Request, Map<String, String>> source) {
        this.traceHeaders = Objects.requireNonNull(source, "source");
    }

    void replace(Map<String, ParamHeaders> byTool) {
        this.paramHeaders = Map.copyOf(byTool);
    }

    void add(Map<String, ParamHeaders> byTool) {
        if (byTool.isEmpty()) {
            return;
        }
        synchronized (this) {
            Map<String, ParamHeaders> merged = new HashMap<>(paramHeaders);
            merged.putAll(byTool);
            if (merged.size() <= 100_000) {
                this.paramHeaders = Map.copyOf(merged);
            }
        }
    }

    /** The version a stateless request names in its {@code _meta}; empty for a session-based one. */
    static Optional<String> metaVersion(JsonRpcMessage.Request request) {
        return request.params().map(p -> p.get("_meta")).filter(JsonNode::isObject)
                .map(meta -> meta.get(ProtocolVersion.META_VERSION))
                .filter(JsonNode::isString).map(JsonNode::stringValue);
    }

    void label(HttpRequest.Builder b, JsonRpcMessage.Request r) {
        metaVersion(r).ifPresent(v -> b.setHeader("MCP-Protocol-Version", v));
        traceContext(r, b);
        b.header("Mcp-Method", r.method());
        String field = switch (r.method()) {
            case "tools/call", "prompts/get" -> "name";
            case "resources/read" -> "uri";
            default -> null;
        };
        if (field != null) {
            r.params().map(p -> p.get(field)).filter(JsonNode::isString).map(JsonNode::stringValue)
                    .ifPresent(name -> b.header("Mcp-Name", headerValue(name)));
        }
        if ("tools/call".equals(r.method())) {
            r.params().map(p -> p.path("name").asString("")).map(paramHeaders::get).ifPresent(annotated ->
                    annotated.headers(r.params().get().path("arguments")).forEach(b::header));
        }
    }

    /**
     * The W3C trace context its source gives for the request (its CLIENT span's, put in {@code
     * _meta} by warden-telemetry) as HTTP headers too, so the HTTP hop joins the same trace: the
     * conventions let the server link the transport's context. Only visible ASCII of a bounded length goes.
     */
    private void traceContext(JsonRpcMessage.Request r, HttpRequest.Builder b) {
        Map<String, String> context = traceHeaders.apply(r);
        for (String header : RequestHeaders.TRACE_CONTEXT) {
            String value = context.get(header);
            if (value != null && isHeaderText(value)) {
                b.setHeader(header, value);
            }
        }
    }

    /** The W3C trace context in the request's {@code _meta}, as it stands. */
    static Map<String, String> fromMeta(JsonRpcMessage.Request r) {
        JsonNode meta = r.params().map(p -> p.get("_meta")).orElse(null);
        if (meta == null || !meta.isObject()) {
            return Map.of();
        }
        Map<String, String> context = new HashMap<>();
        for (String header : RequestHeaders.TRACE_CONTEXT) {
            JsonNode value = meta.get(header);
            if (value != null && value.isString()) {
                context.put(header, value.stringValue());
            }
        }
        return context;
    }

    private static boolean isHeaderText(String value) {
        if (value.isEmpty() || value.length() > RequestHeaders.TRACE_CONTEXT_MAX_LENGTH) {
            return false;
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < 0x20 || c > 0x7e) {
                return false;
            }
        }
        return true;
    }

    static String headerValue(String value) {
        return value.isEmpty() ? "=?base64??=" : ParamHeaders.encode(value);
    }
}
