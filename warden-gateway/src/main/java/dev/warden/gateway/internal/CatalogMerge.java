package dev.warden.gateway.internal;

import dev.warden.core.error.ProtocolException;
import dev.warden.core.json.Json;
import dev.warden.core.protocol.Pages;
import dev.warden.core.session.RequestContext;
import dev.warden.gateway.internal.access.CallerAccess;
import dev.warden.gateway.internal.call.UpstreamCalls;
import dev.warden.gateway.internal.catalog.ConnectionLinks;
import dev.warden.gateway.internal.catalog.Listing;
import dev.warden.gateway.internal.catalog.Naming;
import dev.warden.gateway.internal.catalog.PinWatch;
import dev.warden.gateway.internal.catalog.ToolCatalog;
import dev.warden.gateway.internal.upstream.UpstreamLink;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The upstreams' tools and prompts as one catalog: listed together (named {@code
 * <upstream>__<name>} when there are several), without what policy hides, and a prompt fetched
 * from the upstream its name points at.
 */
final class CatalogMerge {

    private static final System.Logger LOG = System.getLogger(CatalogMerge.class.getName());

    private final ConnectionLinks links;
    private final ToolCatalog tools;
    private final UpstreamCalls calls;
    private final CallerAccess access;
    private final PinWatch pins;

    CatalogMerge(ConnectionLinks links, ToolCatalog tools, UpstreamCalls calls, CallerAccess access, PinWatch pins) {
        this.pins = pins;
        this.links = links;
        this.tools = tools;
        this.calls = calls;
        this.access = access;
    }

    /** {@code tools/list}, noting what each tool declares (its output schema, its header params). */
    JsonNode listTools(RequestContext ctx) throws Exception {
        JsonNode result = listNamed(ctx, "tools");
        for (JsonNode tool : result.path("tools")) {
            tools.note(tool, links.resolve(tool.path("name").asString("")));
        }
        return result;
    }

    /**
     * {@code tools/list} or {@code prompts/list}. One upstream: its pages as they are, with what
     * policy hides taken out. Several: every page of each ({@link Pages#readAll}), renamed, in one
     * answer; an upstream that fails is left out and the others are listed.
     */
    JsonNode listNamed(RequestContext ctx, String field) throws Exception {
        calls.spendRate(links.first(), ctx);
        if (links.single()) {
            UpstreamLink link = links.first();
            return calls.forward(link, ctx, UpstreamCalls.params(ctx), page -> visible(link, page, field));
        }
        ObjectNode out = Json.object();
        ArrayNode all = out.putArray(field);
        for (UpstreamLink link : links.all()) {
            boolean whole = Pages.readAll(p -> calls.send(link, ctx, p, link.spec().timeout(), Optional.empty())
                    .answered(), page -> {
                for (JsonNode item : visible(link, page, field).path(field)) {
                    ObjectNode renamed = ((ObjectNode) link.pipeline().cleanSuccess(item)).deepCopy();
                    renamed.put("name", links.naming().exposed(link, item.path("name").asString("")));
                    all.add(renamed);
                }
            });
            if (!whole) {
                LOG.log(System.Logger.Level.WARNING, "upstream {0} left out of {1}", link.name(), ctx.method());
            }
        }
        return out;
    }

    /**
     * A listing without what policy hides ({@code tools.deny}, the access rules, a tool changed
     * since it was pinned in block mode): a denied tool or prompt does not exist, as far as the
     * client can tell. Every item is compared with its pin (a change is reported) before the rules
     * decide, so a change is noticed even in what no client may see.
     */
    private JsonNode visible(UpstreamLink link, JsonNode page, String field) {
        boolean isTools = "tools".equals(field);
        return Listing.keeping(page, field, item -> {
            String name = item.path("name").asString("");
            boolean pinned = pins.shows(link.name(), field, item);
            return pinned && (isTools ? link.spec().exposes(name) && access.tool(link.name(), name)
                    : access.prompt(link.name(), name));
        });
    }

    JsonNode getPrompt(RequestContext ctx) throws Exception {
        ObjectNode params = UpstreamCalls.params(ctx);
        Naming.Target target = links.resolve(params.path("name").asString(""))
                .filter(t -> access.prompt(t.link().name(), t.name()))
                .orElseThrow(() -> ProtocolException.unknown("Unknown prompt"));
        params.put("name", target.name());
        calls.spendRate(target.link(), ctx);
        return calls.forwardNamed(target.link(), ctx, params, access,
                () -> ProtocolException.unknown("Unknown prompt"));
    }
}
