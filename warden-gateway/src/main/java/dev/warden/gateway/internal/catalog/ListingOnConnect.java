package dev.warden.gateway.internal.catalog;

import dev.warden.client.McpClient;
import dev.warden.core.mcp.Tools;
import dev.warden.core.protocol.Pages;
import dev.warden.gateway.internal.upstream.UpstreamLink;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The gateway's own {@code tools/list} of an upstream as it first connects, noted in the {@link
 * ToolCatalog} as a client's listing is, and compared with the upstream's pins. Without it the
 * gateway knew the tools only from a listing that went through it: a client that calls without
 * listing (it listed before the gateway restarted, or knows its tools) got spans and metrics
 * without the tool's name, failures whose published words (a pattern, an enum value) the sanitizer
 * did not know, no check of its {@code Mcp-Param-*} headers, and, in block mode, a changed tool
 * served because no listing had shown the change. Once per upstream: a per-client upstream's
 * first connection lists, the others find its tools known.
 */
public final class ListingOnConnect {

    private static final System.Logger LOG = System.getLogger(ListingOnConnect.class.getName());

    private final ToolCatalog tools;
    private final PinWatch pins;
    private final Naming naming;
    /** The upstreams listed, or being listed: one that failed is removed, to be tried at its next connection. */
    private final Set<String> listed = ConcurrentHashMap.newKeySet();

    /** @param naming how the gateway exposes the upstreams' names */
    public ListingOnConnect(ToolCatalog tools, PinWatch pins, Naming naming) {
        this.tools = tools;
        this.pins = pins;
        this.naming = naming;
    }

    /**
     * Lists {@code link}'s tools on {@code connection}, just made, on a thread of its own: the
     * future ends when they are noted, or the listing failed (logged, never thrown). Nothing when
     * the upstream offers no tools or was listed already.
     */
    public CompletableFuture<?> of(UpstreamLink link, McpClient connection) {
        if (!connection.serverCapabilities().has("tools") || !listed.add(link.name())) {
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<Void> done = new CompletableFuture<>();
        Thread.ofVirtual().name("warden-list-" + link.name()).start(() -> {
            try {
                read(link, connection);
            } catch (Exception e) {
                listed.remove(link.name());
                // Its class only: the upstream's words stay out of the gateway's log.
                LOG.log(System.Logger.Level.INFO, "upstream {0}: its tools could not be listed as it connected ({1});"
                        + " they are learnt from clients'' listings", link.name(), e.getClass().getSimpleName());
            } finally {
                done.complete(null);
            }
        });
        return done;
    }

    private void read(UpstreamLink link, McpClient connection) throws Exception {
        Pages.readAll(params -> Optional.of(connection.request(Tools.LIST, params)), page -> {
            for (JsonNode item : link.pipeline().cleanSuccess(page).path("tools")) {
                String own = item.path("name").asString("");
                // As a listing shows it: compared with its pin first, then hidden if policy hides it.
                if (!item.isObject() || !pins.shows(link.name(), "tools", item) || !link.spec().exposes(own)) {
                    continue;
                }
                ObjectNode exposed = ((ObjectNode) item).deepCopy();
                exposed.put("name", naming.exposed(link, own));
                tools.note(exposed, Optional.of(new Naming.Target(link, own)));
            }
        });
    }
}
