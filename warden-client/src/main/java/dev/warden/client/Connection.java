package dev.warden.client;

import dev.warden.core.json.Json;
import dev.warden.core.mcp.Implementation;
import dev.warden.core.mcp.ProtocolVersion;
import dev.warden.core.session.Session;
import dev.warden.core.transport.Transport;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One live connection with what initialize (or server/discover) told about the server. In a
 * stateless version there is no session state: {@link #stamp} puts the version and the client's
 * capabilities in every request's {@code _meta}.
 */
record Connection(Session session, Transport transport, ProtocolVersion version, Implementation server,
                  ObjectNode capabilities, Optional<String> instructions, ObjectNode clientMeta) {

    ObjectNode stamp(ObjectNode params) {
        if (!version.stateless()) {
            return params;
        }
        ObjectNode copy = params == null ? Json.object() : params.deepCopy();
        JsonNode existing = copy.get("_meta");
        ObjectNode meta = existing instanceof ObjectNode m ? m : copy.putObject("_meta");
        // A caller may speak for a client of its own (a proxy): its capabilities and log level stand.
        for (Map.Entry<String, JsonNode> entry : clientMeta.properties()) {
            if (!meta.has(entry.getKey()) || ProtocolVersion.META_VERSION.equals(entry.getKey())) {
                meta.set(entry.getKey(), entry.getValue());
            }
        }
        return copy;
    }

    boolean isOpen() {
        return !session.isClosed();
    }

    void close() {
        session.close();
        transport.close();
    }
}
