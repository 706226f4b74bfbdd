package orders;

import dev.warden.core.error.ToolFailure;
import dev.warden.server.McpServer;
import dev.warden.server.Tool;
import dev.warden.server.ToolContext;
import dev.warden.server.ToolParam;
import dev.warden.server.ToolResult;
import orders.Orders.Order;
import orders.TypedOrdersServer.CancelOrder;
import orders.TypedOrdersServer.Cancelled;

/** The annotated form, which docs/guides/write-a-server.md quotes: one object, one call registers its tools. */
// doc:annotated
public class OrderTools {
    private final Orders orders = new Orders();

    @Tool(description = "Cancels an order that has not shipped.", idempotent = true)
    public Cancelled cancelOrder(CancelOrder args, ToolContext context) {
        Order order = orders.find(args.id()).orElseThrow(() -> ToolFailure.notFound("No order with this id."));
        orders.cancel(order);
        return new Cancelled(order.id(), true);
    }

    @Tool(description = "Tells whether an order has shipped.", readOnly = true, destructive = false)
    public String orderStatus(@ToolParam(description = "The order's id") String id) {
        return orders.find(id).map(o -> o.shipped() ? "shipped" : "not shipped")
                .orElseThrow(() -> ToolFailure.notFound("No order with this id."));
    }

    @Tool(description = "Checks that the order service answers.", readOnly = true, destructive = false)
    public ToolResult ping() {
        return ToolResult.text("pong");
    }
}
// end:annotated

final class AnnotatedOrdersServer {

    static McpServer server() {
        // doc:annotated-register
        McpServer server = McpServer.builder("orders", "1.0.0").tools(new OrderTools()).build();
        // end:annotated-register
        return server;
    }
}
