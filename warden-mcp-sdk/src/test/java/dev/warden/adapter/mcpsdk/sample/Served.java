package dev.warden.adapter.mcpsdk.sample;

import dev.warden.adapter.mcpsdk.WardenGuard;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;

/**
 * The orders server as its team serves it (Streamable HTTP, the SDK's servlet), and the same server
 * with Warden's guard: the guide (docs/guides/protect-an-official-sdk-server.md) quotes these lines.
 */
public final class Served {

    /** A server and the servlet that serves it. */
    public record Endpoint(McpSyncServer server, HttpServletStreamableServerTransportProvider servlet) {
    }

    /** Tools, resources (its template) and prompts; the SDK announces only what it is told. */
    static final McpSchema.ServerCapabilities CAPABILITIES = McpSchema.ServerCapabilities.builder()
            .tools(false).resources(false, false).prompts(false).build();

    private Served() {
    }

    public static Endpoint plain(OrdersServer orders, String path) {
        var transport = HttpServletStreamableServerTransportProvider.builder().mcpEndpoint(path).build();
        McpSyncServer server = McpServer.sync(transport).serverInfo("orders", "1.0.0").capabilities(CAPABILITIES)
                .tools(orders.tools())
                .resourceTemplates(orders.resourceTemplates())
                .prompts(orders.prompts())
                .build();
        return new Endpoint(server, transport);
    }

    public static Endpoint guarded(OrdersServer orders, String path, WardenGuard guard) {
        // doc:guarded
        McpJsonMapper mapper = guard.jsonMapper(McpJsonDefaults.getMapper());
        var transport = HttpServletStreamableServerTransportProvider.builder().mcpEndpoint(path).jsonMapper(mapper)
                .build();
        McpSyncServer server = McpServer.sync(transport).jsonMapper(mapper)
                .serverInfo("orders", "1.0.0").capabilities(CAPABILITIES)
                .tools(guard.wrap(orders.tools()))
                .resourceTemplates(guard.wrap(orders.resourceTemplates()))
                .prompts(guard.wrap(orders.prompts()))
                .build();
        // end:guarded
        return new Endpoint(server, transport);
    }
}
