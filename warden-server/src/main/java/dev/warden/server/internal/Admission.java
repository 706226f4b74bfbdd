package dev.warden.server.internal;

import dev.warden.core.error.ProtocolException;
import dev.warden.core.json.Json;
import dev.warden.core.jsonrpc.JsonRpcMessage;
import dev.warden.core.mcp.Lifecycle;
import dev.warden.core.mcp.Ping;
import dev.warden.core.mcp.Tools;
import dev.warden.core.protocol.ServerHandshake;
import dev.warden.core.protocol.StatelessRequests;
import dev.warden.core.transport.RequestHeaders;
import dev.warden.core.transport.Transport;
import dev.warden.server.ToolSpec;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * Which requests a connection takes at all (the session's gate), before any handler runs: before
 * initialize only initialize, ping and server/discover; a stateless request must name a version
 * this server speaks, declare the client's capabilities, and agree with its own HTTP headers.
 */
public final class Admission {

    private final Catalog catalog;
    private final ConnectedClient client;
    private final Transport transport;

    public Admission(Catalog catalog, ConnectedClient client, Transport transport) {
        this.catalog = catalog;
        this.client = client;
        this.transport = transport;
    }

    /**
     * Before initialize only initialize, ping and server/discover run; a request that names a
     * stateless version in its {@code _meta} (2026-07-28 on) needs no initialize, but must name
     * a version this server speaks.
     */
    public Optional<ProtocolException> admit(JsonRpcMessage.Request request) {
        if (StatelessRequests.stateless(request.params())) {
            Optional<ProtocolException> refused = StatelessRequests.refusal(request);
            return refused.isPresent() ? refused : paramHeaderMismatch(request);
        }
        if (client.version().isPresent() || Lifecycle.INITIALIZE.equals(request.method())
                || ServerHandshake.DISCOVER.equals(request.method()) || Ping.METHOD.equals(request.method())) {
            return Optional.empty();
        }
        return Optional.of(ProtocolException.invalidRequest("Invalid request: the session has not been initialized"));
    }

    /**
     * Over HTTP, a call's {@code Mcp-Param-*} headers must agree with the arguments the tool
     * marks with {@code x-mcp-header} (a proxy may have routed on them): else -32020, HTTP 400.
     */
    private Optional<ProtocolException> paramHeaderMismatch(JsonRpcMessage.Request request) {
        if (!(transport instanceof RequestHeaders headers) || !Tools.CALL.equals(request.method())) {
            return Optional.empty();
        }
        JsonNode params = request.params().orElse(Json.object());
        ToolSpec tool = catalog.tools().get(params.path("name").asString(""));
        if (tool == null || tool.paramHeaders().isEmpty()) {
            return Optional.empty();
        }
        return tool.paramHeaders().mismatch(headers::header, params.path("arguments")).map(header ->
                ProtocolException.headerMismatch("Header mismatch: " + header
                        + " is missing, malformed or differs from the arguments"));
    }
}
