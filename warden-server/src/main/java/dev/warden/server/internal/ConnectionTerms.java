package dev.warden.server.internal;

import dev.warden.core.error.ProtocolException;
import dev.warden.core.json.Json;
import dev.warden.core.jsonrpc.JsonRpcMessage;
import dev.warden.core.mcp.Logging;
import dev.warden.core.mcp.ProtocolVersion;
import dev.warden.core.protocol.ServerHandshake;
import dev.warden.core.protocol.StatelessResults;
import dev.warden.core.session.RequestContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * How a client and one connection agree on terms: {@code initialize} (once, the version settled
 * by {@link ServerHandshake}), {@code logging/setLevel}, {@code server/discover}, and the
 * decoration stateless results carry in place of a handshake. What is offered is the catalog's.
 */
public final class ConnectionTerms {

    private final Catalog catalog;
    private final ConnectedClient client;

    public ConnectionTerms(Catalog catalog, ConnectedClient client) {
        this.catalog = catalog;
        this.client = client;
    }

    public JsonNode initialize(RequestContext context) {
        ServerHandshake.firstOnly(client.version().isPresent());
        ObjectNode params = Params.object(context.params());
        String requested = Params.requiredString(params, "protocolVersion");
        JsonNode capabilities = params.get("capabilities");
        client.capabilities(capabilities instanceof ObjectNode o ? o.deepCopy() : Json.object());
        ProtocolVersion agreed = ServerHandshake.agree(context, requested);
        JsonNode result = ServerHandshake.initializeResult(agreed, offer());
        client.initialized(agreed);
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
        return ServerHandshake.discoverResult(offer());
    }

    /** Results of stateless requests carry resultType, the server's identity and, where cacheable, a TTL. */
    public JsonNode decorate(JsonRpcMessage.Request request, JsonNode result) {
        return StatelessResults.of(request, result, catalog.info());
    }

    private ServerHandshake.Offer offer() {
        return new ServerHandshake.Offer((ObjectNode) Json.tree(catalog.capabilities()), catalog.info(),
                catalog.instructions());
    }
}
