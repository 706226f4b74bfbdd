package dev.warden.gateway.internal;

import dev.warden.client.McpClient;
import dev.warden.core.error.ProtocolException;
import dev.warden.core.json.Json;
import dev.warden.core.jsonrpc.RequestId;
import dev.warden.core.mcp.Listening;
import dev.warden.core.mcp.Logging;
import dev.warden.core.protocol.ClientSubscriptions;
import dev.warden.core.session.RequestContext;
import dev.warden.core.session.Session;
import dev.warden.gateway.internal.call.UpstreamCalls;
import dev.warden.gateway.internal.catalog.ConnectionLinks;
import dev.warden.gateway.internal.client.ClientProfile;
import dev.warden.gateway.internal.client.StatelessRules;
import dev.warden.gateway.internal.upstream.UpstreamLink;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A stateless client's {@code subscriptions/listen} streams, and what reaches a stateless client
 * at all: list changes and resource updates on the streams that asked for them, log messages at
 * the level its requests carry.
 */
final class ListenStreams {

    private static final System.Logger LOG = System.getLogger(ListenStreams.class.getName());
    /** How many of a listen's resource subscriptions are looked at: counted by item, not by success. */
    static final int MAX_SUBSCRIPTIONS = 1000;

    private final Session session;
    private final ClientProfile profile;
    private final GatewayOffer offer;
    private final ResourceRouting resources;
    private final UpstreamCalls calls;
    private final ConnectionLinks links;
    /** This client's open listen streams: what each asked to hear, as far as the upstreams offer it. */
    private final ClientSubscriptions listens;
    private final java.util.concurrent.CompletionStage<Void> draining;

    ListenStreams(Session session, ClientProfile profile, GatewayOffer offer, ResourceRouting resources,
                  UpstreamCalls calls, ConnectionLinks links, java.util.concurrent.CompletionStage<Void> draining) {
        this.calls = calls;
        this.links = links;
        this.draining = draining;
        this.session = session;
        this.profile = profile;
        this.offer = offer;
        this.resources = resources;
        this.listens = resources.following();
    }

    /**
     * {@code subscriptions/listen}: acknowledged with the part of the filter the upstreams can
     * honour, then held open; list changes and updates of the named resources arrive on it,
     * tagged with its id, until the client closes it. Its resource subscriptions count like any.
     * It spends the caller's rate once, as any request reaching an upstream does; of its resource
     * subscriptions only the first {@value #MAX_SUBSCRIPTIONS} are looked at (each may ask an
     * upstream, refused or not), the rest are left out of the acknowledgement, as unhonoured ones are.
     */
    JsonNode listen(RequestContext ctx) throws Exception {
        if (!StatelessRules.stateless(ctx)) {
            throw ProtocolException.methodNotFound();
        }
        calls.spendRate(links.first(), ctx);
        JsonNode wanted = UpstreamCalls.params(ctx).path("notifications");
        List<McpClient> up = offer.connectAll();
        boolean tools = wanted.path("toolsListChanged").asBoolean(false) && offers(up, "tools", "listChanged");
        boolean prompts = wanted.path("promptsListChanged").asBoolean(false) && offers(up, "prompts", "listChanged");
        boolean lists = wanted.path("resourcesListChanged").asBoolean(false)
                && offers(up, "resources", "listChanged");
        Set<String> uris = ConcurrentHashMap.newKeySet();
        Map<String, UpstreamLink> owners = new LinkedHashMap<>();
        Object subscriber = new Object();
        ObjectNode agreed = Json.object();
        if (tools) {
            agreed.put("toolsListChanged", true);
        }
        if (prompts) {
            agreed.put("promptsListChanged", true);
        }
        if (lists) {
            agreed.put("resourcesListChanged", true);
        }
        if (wanted.path("resourceSubscriptions").isArray()) {
            ArrayNode list = agreed.putArray("resourceSubscriptions");
            JsonNode asked = wanted.get("resourceSubscriptions");
            for (int i = 0; i < Math.min(asked.size(), MAX_SUBSCRIPTIONS); i++) {
                JsonNode item = asked.get(i);
                String uri = item.asString("");
                Optional<UpstreamLink> owner = item.isString() ? resources.ownerOf(uri) : Optional.empty();
                if (owner.isEmpty()) {
                    continue;
                }
                try {
                    resources.subscribe(owner.get(), ctx, Json.object().put("uri", uri), uri, subscriber);
                    uris.add(uri);
                    owners.put(uri, owner.get());
                    list.add(uri);
                } catch (Exception e) {
                    LOG.log(System.Logger.Level.DEBUG, "a subscription of a listen stream was refused");
                }
            }
        }
        ObjectNode ack = ClientSubscriptions.acknowledgement(ctx.id(), agreed);
        listens.open(ctx.id(), new ClientSubscriptions.Filter(tools, prompts, lists, uris));
        try {
            session.notify(Listening.ACKNOWLEDGED, ack, ctx.id());
            // Until the client closes the stream (this thread is interrupted then), or the gateway
            // drains: then the stream ends with its result, the spec's graceful end, and the client
            // listens again (behind a balancer, on a replica that serves).
            java.util.concurrent.CompletableFuture.anyOf(session.closed(), draining.toCompletableFuture()).get();
            if (session.closed().isDone()) {
                throw new InterruptedException("the connection closed");
            }
            ObjectNode ended = Json.object();
            ended.set("_meta", ClientSubscriptions.meta(ctx.id()));
            return ended;
        } finally {
            listens.close(ctx.id());
            owners.forEach((uri, owner) -> owner.unsubscribe(subscriber, uri, false));
        }
    }

    private static boolean offers(List<McpClient> up, String capability, String flag) {
        return up.stream().anyMatch(c -> c.serverCapabilities().path(capability).path(flag).asBoolean(false));
    }

    /** An upstream's notification to a stateless client: log messages at its level; the rest on the listen streams that asked. */
    void toStatelessClient(String method, JsonNode body) {
        if ("notifications/message".equals(method)) {
            Optional<Logging.Level> wanted = profile.logLevel();
            if (wanted.isPresent() && !listens.listening() && Logging.Level.named(body.path("level").asString(""))
                    .filter(level -> level.atLeast(wanted.get())).isPresent()) {
                session.notify(method, body);
            }
            return;
        }
        for (RequestId listen : listens.listeners(method, body.path("uri").asString(""))) {
            ObjectNode tagged = body instanceof ObjectNode o ? o.deepCopy() : Json.object();
            ObjectNode meta = tagged.get("_meta") instanceof ObjectNode m ? m : tagged.putObject("_meta");
            meta.set(Listening.META_SUBSCRIPTION, listen.toJson());
            session.notify(method, tagged, listen);
        }
    }
}
