package dev.warden.server.internal;

import dev.warden.core.json.Json;
import dev.warden.core.jsonrpc.RequestId;
import dev.warden.core.mcp.Listening;
import dev.warden.core.mcp.Resources;
import dev.warden.core.protocol.ClientSubscriptions;
import dev.warden.core.session.RequestContext;
import dev.warden.core.session.Session;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The server's side of what one connection's client follows ({@link ClientSubscriptions}): what
 * it honours (resource updates, when it offers subscriptions; its lists do not change), and the
 * notifications a changed resource sends.
 */
public final class Subscriptions {

    private final boolean offered;
    private final ClientSubscriptions following = new ClientSubscriptions();

    /** {@code offered}: whether the server lets clients subscribe to resources at all. */
    public Subscriptions(boolean offered) {
        this.offered = offered;
    }

    public JsonNode subscribe(RequestContext context) {
        following.subscribe(uri(context));
        return Json.object();
    }

    public JsonNode unsubscribe(RequestContext context) {
        following.unsubscribe(uri(context));
        return Json.object();
    }

    private static String uri(RequestContext context) {
        return Params.requiredString(Params.object(context.params()), "uri");
    }

    /** Whether this client subscribed to {@code uri}. */
    public boolean subscribed(String uri) {
        return following.subscribed(uri);
    }

    /**
     * {@code subscriptions/listen} (2026-07-28): acknowledges the subset of the filter this server
     * honours (resource updates when it offers subscriptions; its lists do not change), then keeps
     * the request open, sending matching notifications tagged with the subscription id, until the
     * client cancels it (closes the stream, or notifications/cancelled on stdio).
     */
    public JsonNode listen(RequestContext context) throws InterruptedException {
        ObjectNode params = Params.object(context.params());
        JsonNode wanted = params.path("notifications");
        ObjectNode agreed = Json.object();
        Set<String> uris = ConcurrentHashMap.newKeySet();
        if (offered && wanted.path("resourceSubscriptions").isArray()) {
            ArrayNode list = agreed.putArray("resourceSubscriptions");
            for (JsonNode uri : wanted.get("resourceSubscriptions")) {
                if (uri.isString() && uris.size() < 1000) {
                    uris.add(uri.stringValue());
                    list.add(uri.stringValue());
                }
            }
        }
        ObjectNode ack = ClientSubscriptions.acknowledgement(context.id(), agreed);
        following.open(context.id(), new ClientSubscriptions.Filter(false, false, false, uris));
        Session session = context.session();
        try {
            session.notify(Listening.ACKNOWLEDGED, ack, context.id());
            // The work happens in resourceUpdated; this only holds the request open until it is
            // cancelled. A session that closes cancels its requests; one closed before this request
            // was registered is caught by the check after the hook is set.
            CountDownLatch ended = new CountDownLatch(1);
            context.onCancel(ended::countDown);
            if (!session.isClosed()) {
                ended.await();
            }
            throw new InterruptedException("the subscription was cancelled");
        } finally {
            following.close(context.id());
        }
    }

    /** Tells the listen streams and the subscription on {@code session} that follow {@code uri} of its change. */
    public void resourceUpdated(String uri, Session session) {
        for (RequestId subscription : following.listeners(Resources.UPDATED, uri)) {
            ObjectNode params = Json.object();
            params.set("_meta", ClientSubscriptions.meta(subscription));
            params.put("uri", uri);
            try {
                session.notify(Resources.UPDATED, params, subscription);
            } catch (RuntimeException e) {
                // the subscriber went away; its request ends with the connection
            }
        }
        if (following.subscribed(uri) && !session.isClosed()) {
            ObjectNode params = Json.object();
            params.put("uri", uri);
            try {
                session.notify(Resources.UPDATED, params);
            } catch (RuntimeException e) {
                // the client went away
            }
        }
    }
}
