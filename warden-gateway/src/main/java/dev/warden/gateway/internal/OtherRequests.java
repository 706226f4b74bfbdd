package dev.warden.gateway.internal;

import dev.warden.core.error.ProtocolException;
import dev.warden.core.json.Json;
import dev.warden.core.mcp.Logging;
import dev.warden.core.session.RequestContext;
import dev.warden.gateway.internal.access.CallerAccess;
import dev.warden.gateway.internal.call.UpstreamCalls;
import dev.warden.gateway.internal.catalog.ConnectionLinks;
import dev.warden.gateway.internal.catalog.Naming;
import dev.warden.gateway.internal.client.ClientProfile;
import dev.warden.gateway.internal.upstream.UpstreamLink;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** The client's requests besides tools, prompts and resources: log level, completion, and methods the gateway has no rule for. */
final class OtherRequests {

    private final ConnectionLinks links;
    private final ClientProfile profile;
    private final UpstreamCalls calls;
    private final ResourceRouting resources;
    private final CallerAccess access;

    OtherRequests(ConnectionLinks links, ClientProfile profile, UpstreamCalls calls, ResourceRouting resources,
            CallerAccess access) {
        this.access = access;
        this.links = links;
        this.profile = profile;
        this.calls = calls;
        this.resources = resources;
    }

    /** {@code logging/setLevel}: kept for stateless upstreams (each request carries it), sent to the session-based ones. */
    JsonNode setLevel(RequestContext ctx) throws Exception {
        ctx.params().map(p -> p.get("level")).filter(JsonNode::isString)
                .flatMap(level -> Logging.Level.named(level.stringValue())).ifPresent(profile::logLevel);
        boolean spent = false;
        for (UpstreamLink link : links.all()) {
            if (link.speaksStateless()) {
                continue;
            }
            if (link.connectedFor(profile.upstreamCapabilities()).map(c -> c.serverCapabilities().has("logging"))
                    .orElse(false)) {
                if (!spent) {
                    calls.spendRate(link, ctx); // once, however many upstreams hear of it
                    spent = true;
                }
                calls.forward(link, ctx, UpstreamCalls.params(ctx));
            }
        }
        return Json.object();
    }

    /**
     * {@code completion/complete}: to the upstream of the prompt or resource it completes; one the
     * access rules hide from this caller is unknown.
     */
    JsonNode complete(RequestContext ctx) throws Exception {
        ObjectNode params = UpstreamCalls.params(ctx);
        JsonNode ref = params.path("ref");
        if (!"ref/prompt".equals(ref.path("type").asString(""))) {
            resources.decided(ref.path("uri").asString(""));
        }
        if (links.single() && hidden(links.first(), ref)) {
            throw ProtocolException.invalidParams("Invalid params: unknown reference");
        }
        if (links.single()) {
            calls.spendRate(links.first(), ctx);
            // An upstream's own not-found and a hidden item are answered alike.
            return calls.forwardNamed(links.first(), ctx, params, access,
                    () -> ProtocolException.invalidParams("Invalid params: unknown reference"));
        }
        if ("ref/prompt".equals(ref.path("type").asString("")) && params.get("ref") instanceof ObjectNode r) {
            Naming.Target target = links.resolve(ref.path("name").asString(""))
                    .filter(t -> access.prompt(t.link().name(), t.name()))
                    .orElseThrow(() -> ProtocolException.invalidParams("Invalid params: unknown prompt"));
            r.put("name", target.name());
            calls.spendRate(target.link(), ctx);
            return calls.forward(target.link(), ctx, params);
        }
        UpstreamLink owner = resources.listed(ref.path("uri").asString(""))
                .orElseThrow(() -> ProtocolException.invalidParams("Invalid params: unknown reference"));
        calls.spendRate(owner, ctx);
        return calls.forward(owner, ctx, params);
    }

    /** Whether the one upstream's prompt or resource a completion names is hidden from this caller. */
    private boolean hidden(UpstreamLink link, JsonNode ref) {
        return "ref/prompt".equals(ref.path("type").asString("")) ? !access.prompt(link.name(), ref.path("name")
                .asString("")) : !access.resource(link.name(), ref.path("uri").asString(""));
    }

    /**
     * Methods the gateway has no rule for go to the one upstream if it is this client's own
     * ({@code warden wrap}, {@code perClient}); with several, or one shared between callers,
     * nowhere: what such a method keeps upstream could not be kept to its caller.
     */
    JsonNode forwardOther(RequestContext ctx) throws Exception {
        if (links.all().size() != 1 || !links.first().dedicated()) {
            throw ProtocolException.methodNotFound();
        }
        calls.spendRate(links.first(), ctx);
        return calls.forward(links.first(), ctx, UpstreamCalls.params(ctx));
    }
}
