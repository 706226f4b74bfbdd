package dev.warden.gateway.internal;

import dev.warden.core.error.ProtocolException;
import dev.warden.core.json.Json;
import dev.warden.core.protocol.ClientSubscriptions;
import dev.warden.core.protocol.Pages;
import dev.warden.core.session.RequestContext;
import dev.warden.gateway.internal.access.CallerAccess;
import dev.warden.gateway.internal.access.CanonicalUri;
import dev.warden.gateway.internal.call.UpstreamCalls;
import dev.warden.gateway.internal.call.UpstreamFailures;
import dev.warden.gateway.internal.catalog.ConnectionLinks;
import dev.warden.gateway.internal.catalog.Listing;
import dev.warden.gateway.internal.catalog.PinWatch;
import dev.warden.gateway.internal.client.ClientProfile;
import dev.warden.gateway.internal.upstream.UpstreamLink;
import java.util.Comparator;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Resources keep their URIs: the gateway remembers which upstream listed each (and the fixed
 * prefix of each template) to route reads and subscriptions there, and which URIs this client
 * subscribed to, so resource updates reach only their subscribers. Rules and routing decide on a
 * URI only in its canonical form ({@link CanonicalUri}), the one the upstream reads as sent.
 */
final class ResourceRouting {

    private static final System.Logger LOG = System.getLogger(ResourceRouting.class.getName());

    private final ConnectionLinks links;
    private final ClientProfile profile;
    private final UpstreamCalls calls;
    /** Who the upstreams count this client's subscriptions under: its connection, which unsubscribes all when it goes. */
    private final ProxyConnection subscriber;
    /** Which upstream listed a resource URI. */
    private final Map<String, UpstreamLink> owners = new ConcurrentHashMap<>();
    /** Which upstream listed a template, by the fixed prefix of its URI template. */
    private final Map<String, UpstreamLink> templatePrefixes = new ConcurrentHashMap<>();
    /** What this client follows: the resources it subscribed to, and its listen streams ({@link ListenStreams}). */
    private final ClientSubscriptions following = new ClientSubscriptions();

    /** What this caller may see: a resource it may not is neither listed nor found. */
    private final CallerAccess access;
    /** The upstreams' pinned definitions: a resource listed unlike its pin is reported (never hidden). */
    private final PinWatch pins;

    ResourceRouting(ConnectionLinks links, ClientProfile profile, UpstreamCalls calls, ProxyConnection subscriber,
            CallerAccess access, PinWatch pins) {
        this.pins = pins;
        this.access = access;
        this.subscriber = subscriber;
        this.links = links;
        this.profile = profile;
        this.calls = calls;
    }

    JsonNode listResources(RequestContext ctx) throws Exception {
        return list(ctx, "resources", "uri", owners);
    }

    JsonNode listTemplates(RequestContext ctx) throws Exception {
        return list(ctx, "resourceTemplates", "uriTemplate", templatePrefixes);
    }

    private JsonNode list(RequestContext ctx, String field, String key, Map<String, UpstreamLink> listed)
            throws Exception {
        calls.spendRate(links.first(), ctx);
        if (links.single()) {
            UpstreamLink link = links.first();
            return calls.forward(link, ctx, UpstreamCalls.params(ctx), page -> visible(link, page, field, key));
        }
        ObjectNode out = Json.object();
        ArrayNode all = out.putArray(field);
        for (UpstreamLink link : links.all()) {
            boolean whole = Pages.readAll(p -> calls.send(link, ctx, p, link.spec().timeout(), Optional.empty())
                    .answered(), page -> {
                for (JsonNode item : page.path(field)) {
                    String id = item.path(key).asString("");
                    if (!pins.shows(link.name(), field, item) || !access.resource(link.name(), id)) {
                        continue;
                    }
                    listed.put(key.equals("uriTemplate") ? templatePrefix(id) : id, link);
                    all.add(link.pipeline().cleanSuccess(item));
                }
            });
            if (!whole) {
                LOG.log(System.Logger.Level.WARNING, "upstream {0} left out of {1}", link.name(), ctx.method());
            }
        }
        return out;
    }

    /** One upstream's page without what the access rules hide from this caller. */
    private JsonNode visible(UpstreamLink link, JsonNode page, String field, String key) {
        return Listing.keeping(page, field, item -> pins.shows(link.name(), field, item)
                && access.resource(link.name(), item.path(key).asString("")));
    }

    private static String templatePrefix(String template) {
        int brace = template.indexOf('{');
        return brace < 0 ? template : template.substring(0, brace);
    }

    /** {@code resources/read}, {@code resources/subscribe} and {@code resources/unsubscribe}. */
    JsonNode byResource(RequestContext ctx) throws Exception {
        ObjectNode params = UpstreamCalls.params(ctx);
        String uri = decided(params.path("uri").asString(""));
        UpstreamLink owner = ownerOf(uri).orElseThrow(() ->
                // Not listed by anyone (or hidden from this caller): the version's not-found, without the URI.
                ProtocolException.unknown("Resource not found"));
        if (!"resources/unsubscribe".equals(ctx.method())) {
            calls.spendRate(owner, ctx); // leaving costs nothing: refusing it would keep the updates coming
        }
        return switch (ctx.method()) {
            case "resources/subscribe" -> subscribe(owner, ctx, params, uri, subscriber);
            case "resources/unsubscribe" -> unsubscribe(owner, ctx, params, uri, subscriber);
            default -> calls.forwardNamed(owner, ctx, params, access,
                    () -> ProtocolException.unknown("Resource not found"));
        };
    }

    /** Whether this client subscribed to the resource (its updates are for it). */
    boolean subscribedTo(String uri) {
        return following.subscribed(uri);
    }

    ClientSubscriptions following() {
        return following;
    }

    /**
     * Clients share an upstream's session, so subscriptions are counted: the first subscriber of a
     * URI subscribes upstream (a stateless upstream hears of it on the gateway's listen stream),
     * the last to leave unsubscribes.
     */
    JsonNode subscribe(UpstreamLink owner, RequestContext ctx, ObjectNode params, String uri, Object subscriber)
            throws Exception {
        if (!owner.client(profile.upstreamCapabilities()).serverCapabilities().path("resources").path("subscribe")
                .asBoolean(false)) {
            throw ProtocolException.methodNotFound();
        }
        if (owner.subscribe(subscriber, uri) && !owner.speaksStateless()) {
            try {
                ownRequest(owner, ctx, "resources/subscribe", params);
            } catch (Exception e) {
                owner.unsubscribe(subscriber, uri, true);
                throw e;
            }
        }
        following.subscribe(uri);
        return Json.object();
    }

    private JsonNode unsubscribe(UpstreamLink owner, RequestContext ctx, ObjectNode params, String uri,
            Object subscriber) {
        following.unsubscribe(uri);
        if (owner.unsubscribe(subscriber, uri, true) && !owner.speaksStateless()) {
            ownRequest(owner, ctx, "resources/unsubscribe", params);
        }
        return Json.object();
    }

    /** A request of the gateway's own to an upstream on behalf of this client (not the client's request as it came). */
    private void ownRequest(UpstreamLink owner, RequestContext ctx, String method, ObjectNode params) {
        try {
            owner.primary(profile.upstreamCapabilities()).request(method, params);
        } catch (RuntimeException e) {
            throw UpstreamFailures.ofOwnRequest(profile.pipeline(owner), ctx, method, e);
        }
    }

    /**
     * The upstream a resource URI belongs to: the one that listed it (or a template of it); none
     * for a resource this caller may not see.
     */
    Optional<UpstreamLink> ownerOf(String uri) {
        return anyOwnerOf(uri).filter(o -> decidable(uri) && access.resource(o.name(), uri));
    }

    /**
     * The URI a request names, if a decision may be made on it: with access rules, or several
     * upstreams to route among, only a canonical URI (what was decided is then what the upstream
     * reads); with one upstream and no rules nothing is decided and any URI passes as sent.
     *
     * @throws ProtocolException -32602 saying why the URI is not canonical (the caller's own text is not repeated)
     */
    String decided(String uri) {
        if (deciding()) {
            CanonicalUri.refusal(uri).ifPresent(why -> {
                throw ProtocolException.invalidParams("Invalid params: uri: " + why);
            });
        }
        return uri;
    }

    private boolean decidable(String uri) {
        return !deciding() || CanonicalUri.refusal(uri).isEmpty();
    }

    private boolean deciding() {
        return access.ruled() || !links.single();
    }

    private Optional<UpstreamLink> anyOwnerOf(String uri) {
        if (links.single()) {
            return Optional.of(links.first());
        }
        UpstreamLink owner = owners.get(uri);
        if (owner == null) {
            owner = templatePrefixes.entrySet().stream().filter(e -> !e.getKey().isEmpty() && uri.startsWith(e.getKey()))
                    .max(Map.Entry.comparingByKey(Comparator.comparingInt(String::length)))
                    .map(Map.Entry::getValue).orElse(null);
        }
        return Optional.ofNullable(owner);
    }

    /** The upstream that listed exactly this URI (no template), if one did and this caller may see it. */
    Optional<UpstreamLink> listed(String uri) {
        return Optional.ofNullable(owners.get(uri)).filter(o -> decidable(uri) && access.resource(o.name(), uri));
    }
}
