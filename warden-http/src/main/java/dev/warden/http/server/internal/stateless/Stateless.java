package dev.warden.http.server.internal.stateless;

import dev.warden.core.error.ProtocolException;
import dev.warden.core.headers.ParamHeaders;
import dev.warden.core.jsonrpc.Decoded;
import dev.warden.core.jsonrpc.JsonRpcMessage;
import dev.warden.core.mcp.ProtocolVersion;
import dev.warden.http.server.internal.request.Headers;
import java.util.Optional;
import org.eclipse.jetty.server.Request;
import tools.jackson.databind.JsonNode;

/** The 2026-07-28 request rules over HTTP: which requests are stateless, and whether their headers agree. */
public final class Stateless {

    private Stateless() {
    }

    public static boolean headerSaysStateless(Request request) {
        return Optional.ofNullable(request.getHeaders().get(Headers.VERSION))
                .flatMap(v -> ProtocolVersion.fromWire(v.trim())).map(ProtocolVersion::stateless).orElse(false);
    }

    /** Stateless when the body names a version in {@code _meta}, or the header names a stateless one. */
    public static boolean applies(Request request, Decoded decoded) {
        if (headerSaysStateless(request)) {
            return true;
        }
        return decoded instanceof Decoded.Message m && bodyVersion(m.message()).isPresent();
    }

    static Optional<String> bodyVersion(JsonRpcMessage message) {
        Optional<JsonNode> params = switch (message) {
            case JsonRpcMessage.Request r -> r.params();
            case JsonRpcMessage.Notification n -> n.params();
            default -> Optional.empty();
        };
        return params.map(p -> p.get("_meta")).filter(JsonNode::isObject)
                .map(meta -> meta.get(ProtocolVersion.META_VERSION)).filter(JsonNode::isString)
                .map(JsonNode::stringValue);
    }

    /**
     * The header checks, in the order the spec lists them: the version header present and equal to
     * the body's, a version this server speaks, {@code Mcp-Method} equal to the method, and
     * {@code Mcp-Name} equal to the tool, prompt or resource named in the body. No message repeats
     * a header or body value.
     */
    static Optional<ProtocolException> check(Request http, JsonRpcMessage.Request request) {
        Optional<String> header = Optional.ofNullable(http.getHeaders().get(Headers.VERSION)).map(String::trim);
        Optional<String> body = bodyVersion(request);
        if (body.isEmpty()) {
            return Optional.of(ProtocolException.invalidMeta(
                    "Invalid params: _meta must carry io.modelcontextprotocol/protocolVersion"));
        }
        boolean capabilities = request.params().map(p -> p.get("_meta"))
                .map(meta -> meta.get(ProtocolVersion.META_CLIENT_CAPABILITIES)).filter(JsonNode::isObject).isPresent();
        if (!capabilities) {
            return Optional.of(ProtocolException.invalidMeta(
                    "Invalid params: _meta must carry io.modelcontextprotocol/clientCapabilities"));
        }
        if (header.isEmpty() || !header.get().equals(body.get())) {
            return Optional.of(ProtocolException.headerMismatch(
                    "Header mismatch: MCP-Protocol-Version is missing or differs from the body's version"));
        }
        if (ProtocolVersion.fromWire(body.get()).filter(ProtocolVersion::stateless).isEmpty()) {
            return Optional.of(ProtocolException.unsupportedVersion(body.get(), ProtocolVersion.supportedWire()));
        }
        String method = http.getHeaders().get("Mcp-Method");
        if (method == null || !method.equals(request.method())) {
            return Optional.of(ProtocolException.headerMismatch(
                    "Header mismatch: Mcp-Method is missing or differs from the body's method"));
        }
        Optional<String> named = switch (request.method()) {
            case "tools/call", "prompts/get" -> param(request, "name");
            case "resources/read" -> param(request, "uri");
            default -> Optional.empty();
        };
        if (named.isPresent()) {
            Optional<String> name = decode(http.getHeaders().get("Mcp-Name"));
            if (name.isEmpty() || !name.get().equals(named.get())) {
                return Optional.of(ProtocolException.headerMismatch(
                        "Header mismatch: Mcp-Name is missing, malformed or differs from the body"));
            }
        }
        return Optional.empty();
    }

    private static Optional<String> param(JsonRpcMessage.Request request, String field) {
        return request.params().map(p -> p.get(field)).filter(JsonNode::isString).map(JsonNode::stringValue);
    }

    /** A header value as sent, or decoded from the {@code =?base64?…?=} form (empty when malformed). */
    static Optional<String> decode(String value) {
        return value == null ? Optional.empty() : ParamHeaders.decode(value);
    }
}
