package orders;

import dev.warden.auth.ApiKeys;
import dev.warden.auth.Issuer;
import dev.warden.auth.ResourceServer;
import dev.warden.core.error.ToolFailure;
import dev.warden.core.identity.Authenticator;
import dev.warden.http.server.McpHttpServer;
import dev.warden.server.McpServer;
import dev.warden.server.ToolResult;
import dev.warden.server.ToolSpec;
import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import orders.Orders.Order;

/**
 * The server the README and docs/guides/write-a-server.md show: the blocks between "doc:" and
 * "end:" are quoted there word for word (DocSamplesTest checks it).
 */
public final class OrdersServer {

    private final Orders orders = new Orders();

    McpServer server() {
        // doc:server
        McpServer server = McpServer.builder("orders", "1.0.0")
                .tool(ToolSpec.builder("cancel_order")
                        .inputSchema("""
                                {"type":"object","properties":{"id":{"type":"string","pattern":"^o-[0-9]+$"}},
                                 "required":["id"]}""")
                        .handler(call -> {
                            Order order = orders.find(call.string("id").orElseThrow())
                                    .orElseThrow(() -> ToolFailure.notFound("No order with this id."));
                            if (order.shipped()) {
                                return ToolResult.failed(ToolFailure.conflict("The order has already shipped."));
                            }
                            orders.cancel(order);          // an SQLException here becomes CONFLICT/… by SQLSTATE
                            return ToolResult.text("Cancelled.");
                        })
                        .build())
                .build();
        // end:server
        return server;
    }

    void serveStdio() throws InterruptedException {
        McpServer server = server();
        // doc:stdio
        server.serveStdio();
        // end:stdio
    }

    McpHttpServer serveHttp() throws Exception {
        McpServer server = server();
        // doc:http
        McpHttpServer http = McpHttpServer.builder().port(8080).onSession(server::connect).build().start();
        // end:http
        return http;
    }

    McpHttpServer serveHttpWithOAuth() throws Exception {
        McpServer server = server();
        // doc:oauth
        Authenticator auth = ResourceServer.custom()
                .issuer(Issuer.of(URI.create("https://login.example.com")))
                .requiredScopes(Set.of("orders:read"))
                .toolScopes(Map.of("cancel_order", Set.of("orders:write")))   // step-up for this tool
                .apiKeys(ApiKeys.fromFile(Path.of("api-keys.yaml")))
                .build();
        McpHttpServer http = McpHttpServer.builder().port(8080).authenticator(auth)
                .onSession(server::connect).build().start();
        // end:oauth
        return http;
    }

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("--http")) {
            new OrdersServer().serveHttp();
        } else {
            new OrdersServer().serveStdio();
        }
    }
}
