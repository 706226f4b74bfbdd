package orders.mcpsdk;

import dev.warden.adapter.mcpsdk.WardenGuard;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.Optional;
import orders.desk.DeskConfig;
import orders.desk.OrderDesk;
import org.eclipse.jetty.ee11.servlet.ServletContextHandler;
import org.eclipse.jetty.ee11.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * The orders server on the official SDK's Streamable HTTP servlet in Jetty, at {@code /mcp} on
 * 127.0.0.1: as it is, or (argument {@code --guarded}) with Warden's guard around the same specifications.
 */
public record OrdersMcpSdkServer(Server jetty, McpSyncServer server, int port) implements AutoCloseable {

    public static void main(String[] args) throws Exception {
        DeskConfig config = DeskConfig.fromEnvironment(System.getenv());
        int port = Integer.parseInt(System.getenv().getOrDefault("ORDERS_PORT", "8080"));
        Optional<WardenGuard> guard = List.of(args).contains("--guarded") ? Optional.of(WardenGuard.ofDefaults())
                : Optional.empty();
        OrdersMcpSdkServer running = start(new OrderDesk(config).prepare(), port, guard);
        System.out.println("Listening on: http://127.0.0.1:" + running.port() + "/mcp");
        running.jetty().join();
    }

    public static OrdersMcpSdkServer start(OrderDesk desk, int port, Optional<WardenGuard> guard) throws Exception {
        var capabilities = McpSchema.ServerCapabilities.builder().tools(false).build();
        HttpServletStreamableServerTransportProvider transport;
        McpSyncServer server;
        if (guard.isEmpty()) {
            transport = HttpServletStreamableServerTransportProvider.builder().mcpEndpoint("/mcp").build();
            server = McpServer.sync(transport).serverInfo("orders-mcp-sdk", "1.0.0").capabilities(capabilities)
                    .tools(OrderSpecs.tools(desk))
                    .build();
        } else {
            WardenGuard warden = guard.get();
            // doc:sdk-guarded
            transport = HttpServletStreamableServerTransportProvider.builder().mcpEndpoint("/mcp")
                    .jsonMapper(warden.jsonMapper(McpJsonDefaults.getMapper()))
                    .build();
            server = McpServer.sync(transport).serverInfo("orders-mcp-sdk", "1.0.0").capabilities(capabilities)
                    .tools(warden.wrap(OrderSpecs.tools(desk)))
                    .build();
            // end:sdk-guarded
        }
        Server jetty = new Server();
        ServerConnector connector = new ServerConnector(jetty);
        connector.setHost("127.0.0.1");
        connector.setPort(port);
        jetty.addConnector(connector);
        ServletContextHandler context = new ServletContextHandler();
        ServletHolder holder = new ServletHolder(transport);
        holder.setAsyncSupported(true); // the SDK's servlet answers on an async context
        context.addServlet(holder, "/*");
        jetty.setHandler(context);
        jetty.start();
        return new OrdersMcpSdkServer(jetty, server, connector.getLocalPort());
    }

    @Override
    public void close() throws Exception {
        server.close();
        jetty.stop();
    }
}
