package orders.warden;

import dev.warden.core.incident.IncidentSink;
import dev.warden.http.server.McpHttpServer;
import dev.warden.server.McpServer;
import java.util.Optional;
import orders.desk.DeskConfig;
import orders.desk.OrderDesk;

/**
 * The orders server on Warden's own SDK, over Streamable HTTP at {@code /mcp} on 127.0.0.1. Incidents go
 * to the sink given, else to stderr (the server's default).
 */
public record OrdersWardenServer(McpHttpServer http) implements AutoCloseable {

    public static void main(String[] args) throws Exception {
        DeskConfig config = DeskConfig.fromEnvironment(System.getenv());
        int port = Integer.parseInt(System.getenv().getOrDefault("ORDERS_PORT", "8080"));
        OrdersWardenServer running = start(new OrderDesk(config).prepare(), port, Optional.empty());
        System.out.println("Listening on: http://127.0.0.1:" + running.port() + "/mcp");
        Thread.currentThread().join();
    }

    public static OrdersWardenServer start(OrderDesk desk, int port, Optional<IncidentSink> incidents)
            throws Exception {
        McpServer.Builder builder = McpServer.builder("orders-warden", "1.0.0");
        incidents.ifPresent(builder::incidents);
        // doc:warden-serve
        McpServer server = builder.tools(new OrderTools(desk)).build();
        McpHttpServer http = McpHttpServer.builder().port(port).onSession(server::connect).build().start();
        // end:warden-serve
        return new OrdersWardenServer(http);
    }

    public int port() {
        return http.port();
    }

    @Override
    public void close() {
        http.close();
    }
}
