package dev.warden.server.internal;

import dev.warden.core.error.ProtocolException;
import dev.warden.core.json.Json;
import dev.warden.core.jsonrpc.JsonRpcMessage;
import dev.warden.core.mcp.Lifecycle;
import dev.warden.core.mcp.Logging;
import dev.warden.core.mcp.ProtocolVersion;
import dev.warden.core.mcp.StatelessResults;
import dev.warden.core.session.RequestContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * How a client and a connection agree on terms: {@code initialize} (version negotiation),
 * {@code logging/setLevel}, {@code server/discover}, and the decoration stateless results carry
 * in place of a handshake.
 */
public final class Handshake {

    public static final String DISCOVER = "server/discover";

    private final Catalog catalog;
    private final ConnectedClient client;

    public Handshake(Catalog catalog, ConnectedClient client) {
        this.catalog = catalog;
        this.client = client;
    }

    public JsonNode initialize(RequestContext context) {
        if (client.version().isPresent()) {
            throw ProtocolException.invalidRequest("Invalid request: the session is already initialized");
        }
        ObjectNode params = Params.object(context.params());
        String requested = Params.requiredString(params, "protocolVersion");
        ProtocolVersion negotiated = ProtocolVersion.negotiate(requested);
        JsonNode capabilities = params.get("capabilities");
        client.capabilities(capabilities instanceof ObjectNode o ? o.deepCopy() : Json.object());
        context.session().allowBatches(negotiated.allowsBatches());
        Lifecycle.ServerCapabilities caps = catalog.capabilities();
        JsonNode result = Json.tree(new Lifecycle.InitializeResult(negotiated.wire(), caps, catalog.info(),
                catalog.instructions()));
        client.initialized(negotiated);
        return result;
    }

    public JsonNode setLevel(RequestContext context) {
        ObjectNode params = Params.object(context.params());
        String level = Params.requiredString(params, "level");
        try {
            client.logLevel(Logging.Level.fromWire(level));
        } catch (IllegalArgumentException e) {
            throw ProtocolException.invalidParams("Invalid params: level must be one of debug, info, notice, "
                    + "warning, error, critical, alert, emergency");
        }
        return Json.object();
    }

    public JsonNode discover(RequestContext context) {
        ObjectNode result = Json.object();
        ArrayNode versions = result.putArray("supportedVersions");
        ProtocolVersion.supportedWire().forEach(versions::add);
        result.set("capabilities", Json.tree(catalog.capabilities()));
        catalog.instructions().ifPresent(i -> result.put("instructions", i));
        return result;
    }

    /** Results of stateless requests carry resultType, the server's identity and, where cacheable, a TTL. */
    public JsonNode decorate(JsonRpcMessage.Request request, JsonNode result) {
        if (RequestMeta.requestedVersion(request.params()).isEmpty() && !DISCOVER.equals(request.method())) {
            return result;
        }
        return StatelessResults.decorate(request.method(), result, Json.tree(catalog.info()));
    }
}
