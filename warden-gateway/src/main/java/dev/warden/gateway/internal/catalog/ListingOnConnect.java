package dev.warden.gateway.internal.catalog;

import dev.warden.client.McpClient;
import dev.warden.core.mcp.Tools;
import dev.warden.core.protocol.Pages;
import dev.warden.gateway.internal.upstream.Learner;
import dev.warden.gateway.internal.upstream.UpstreamLink;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The gateway's own {@code tools/list} of an upstream as it first connects, and again when it says
 * its tools changed, noted in the {@link ToolCatalog} as a client's listing is and compared with
 * the upstream's pins. Without it the gateway knew the tools only from a listing that went through
 * it: a client that calls without listing (it listed before the gateway restarted, or knows its
 * tools) got spans and metrics without the tool's name, failures whose published words (a
 * pattern, an enum value) the sanitizer did not know, no check of its {@code Mcp-Param-*}
 * headers, and, in block mode, a changed tool served because no listing had shown the change.
 * Once per upstream: a per-client upstream's first connection lists, the others find its tools
 * known. One listing of an upstream at a time; news that comes during one makes one more.
 */
public final class ListingOnConnect implements Learner {

    private static final System.Logger LOG = System.getLogger(ListingOnConnect.class.getName());

    private final ToolCatalog tools;
    private final PinWatch pins;
    private final Naming naming;
    /**
     * The upstreams listed, or being listed. One whose listing failed (an error answer, a timeout,
     * a connection lost) is taken out, to be listed at its next connection (a per-client one's
     * next client) or when it says its tools changed.
     */
    private final Set<String> listed = ConcurrentHashMap.newKeySet();
    /** Per upstream, the listings asked for and not yet begun, plus one while one runs. */
    private final Map<String, AtomicInteger> asked = new ConcurrentHashMap<>();

    /** @param naming how the gateway exposes the upstreams' names */
    public ListingOnConnect(ToolCatalog tools, PinWatch pins, Naming naming) {
        this.tools = tools;
        this.pins = pins;
        this.naming = naming;
    }

    @Override
    public CompletableFuture<?> connected(UpstreamLink link, McpClient connection) {
        if (!offersTools(connection) || !listed.add(link.name())) {
            return CompletableFuture.completedFuture(null);
        }
        return list(link, connection);
    }

    @Override
    public void toolsChanged(UpstreamLink link, McpClient connection) {
        if (offersTools(connection)) {
            list(link, connection);
        }
    }

    private static boolean offersTools(McpClient connection) {
        return connection.serverCapabilities().has("tools");
    }

    /**
     * Lists {@code link}'s tools on a thread of its own, unless a listing of it runs: that one
     * lists once more when it ends. What is returned ends when the listing does (at once when it
     * was left to the running one), never exceptionally: a failure is logged.
     */
    private CompletableFuture<?> list(UpstreamLink link, McpClient connection) {
        AtomicInteger pending = asked.computeIfAbsent(link.name(), n -> new AtomicInteger());
        if (pending.getAndIncrement() > 0) {
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<Void> done = new CompletableFuture<>();
        Thread.ofVirtual().name("warden-list-" + link.name()).start(() -> {
            try {
                int seen;
                do {
                    seen = pending.get();
                    readOrLog(link, connection);
                } while (pending.addAndGet(-seen) > 0);
            } finally {
                done.complete(null);
            }
        });
        return done;
    }

    private void readOrLog(UpstreamLink link, McpClient connection) {
        try {
            read(link, connection);
        } catch (Exception e) {
            // Its class only: an upstream's error is read only where it becomes a client's answer
            // (ArchitectureTest), and its words stay out of the gateway's log.
            listed.remove(link.name());
            LOG.log(System.Logger.Level.INFO, "upstream {0}: its tools could not be listed ({1}); they are learnt"
                    + " from clients'' listings", link.name(), e.getClass().getSimpleName());
        }
    }

    /** Every page (a page not given throws), each tool as a client's listing treats it. */
    private void read(UpstreamLink link, McpClient connection) throws Exception {
        Pages.readAll(params -> Optional.of(connection.request(Tools.LIST, params)), page -> {
            for (JsonNode item : page.path("tools")) {
                String own = item.path("name").asString("");
                // Compared with its pin as listed (pins hash what the upstream lists), then hidden
                // if policy hides it, then cleaned as a client would get it.
                if (!item.isObject() || !pins.shows(link.name(), "tools", item) || !link.spec().exposes(own)) {
                    continue;
                }
                ObjectNode exposed = ((ObjectNode) link.pipeline().cleanSuccess(item)).deepCopy();
                exposed.put("name", naming.exposed(link, own));
                tools.note(exposed, Optional.of(new Naming.Target(link, own)));
            }
        });
    }
}
