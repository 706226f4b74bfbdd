package dev.warden.core.protocol;

import dev.warden.core.json.Json;
import dev.warden.core.jsonrpc.RequestId;
import dev.warden.core.mcp.Listening;
import dev.warden.core.mcp.Prompts;
import dev.warden.core.mcp.Resources;
import dev.warden.core.mcp.Tools;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import tools.jackson.databind.node.ObjectNode;

/**
 * What one connection's client follows, for the SDK's server and the gateway alike: the
 * resources it subscribed to ({@code resources/subscribe}, session-based) and its open listen
 * streams ({@code subscriptions/listen}, 2026-07-28), and which of them a notification is for.
 * What a side honours and how it learns of changes is its own.
 */
public final class ClientSubscriptions {

    /** What one listen stream follows, as acknowledged. */
    public record Filter(boolean tools, boolean prompts, boolean resources, Set<String> uris) {
        public Filter {
            Objects.requireNonNull(uris, "uris");
        }
    }

    private final Set<String> subscribed = ConcurrentHashMap.newKeySet();
    private final Map<RequestId, Filter> listens = new ConcurrentHashMap<>();

    /** Nothing followed yet: one per connection. */
    public ClientSubscriptions() {
    }

    public void subscribe(String uri) {
        subscribed.add(uri);
    }

    public void unsubscribe(String uri) {
        subscribed.remove(uri);
    }

    /** Whether the client subscribed to {@code uri} (its updates are for it). */
    public boolean subscribed(String uri) {
        return subscribed.contains(uri);
    }

    /** A listen stream opened with the id of its request: from now on its notifications are matched. */
    public void open(RequestId id, Filter filter) {
        listens.put(id, filter);
    }

    public void close(RequestId id) {
        listens.remove(id);
    }

    /** Whether any listen stream is open. */
    public boolean listening() {
        return !listens.isEmpty();
    }

    /** The listen streams that asked for notification {@code method} ({@code uri}: the updated resource's). */
    public List<RequestId> listeners(String method, String uri) {
        List<RequestId> out = new ArrayList<>();
        listens.forEach((id, filter) -> {
            boolean matches = switch (method) {
                case Tools.LIST_CHANGED -> filter.tools();
                case Prompts.LIST_CHANGED -> filter.prompts();
                case Resources.LIST_CHANGED -> filter.resources();
                case Resources.UPDATED -> filter.uris().contains(uri);
                default -> false;
            };
            if (matches) {
                out.add(id);
            }
        });
        return out;
    }

    /** {@code _meta} naming the listen stream {@code id}: on its acknowledgement and every notification it carries. */
    public static ObjectNode meta(RequestId id) {
        ObjectNode meta = Json.object();
        meta.set(Listening.META_SUBSCRIPTION, id.toJson());
        return meta;
    }

    /** The params of {@code notifications/subscriptions/acknowledged}: the part of the filter honoured. */
    public static ObjectNode acknowledgement(RequestId id, ObjectNode agreed) {
        ObjectNode ack = Json.object();
        ack.set("_meta", meta(id));
        ack.set("notifications", agreed);
        return ack;
    }
}
