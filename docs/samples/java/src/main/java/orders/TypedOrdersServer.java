package orders;

import dev.warden.core.error.ToolFailure;
import dev.warden.server.McpServer;
import dev.warden.server.ToolParam;
import dev.warden.server.ToolSpec;
import jakarta.validation.constraints.Pattern;
import java.util.Optional;
import orders.Orders.Order;

/**
 * The typed form of OrdersServer's tool, which docs/guides/write-a-server.md quotes: the schema is
 * generated from the record, the arguments arrive bound to it, the returned record is the
 * structured content.
 */
public final class TypedOrdersServer {

    private final Orders orders = new Orders();

    // doc:typed-records
    record CancelOrder(
            @ToolParam(description = "The order to cancel") @Pattern(regexp = "^o-[0-9]+$") String id,
            @ToolParam(description = "Why, in a few words") Optional<String> reason) {}

    record Cancelled(String id, boolean refunded) {}
    // end:typed-records

    McpServer server() {
        // doc:typed
        McpServer server = McpServer.builder("orders", "1.0.0")
                .tool(ToolSpec.of("cancel_order", CancelOrder.class, Cancelled.class, (args, context) -> {
                    Order order = orders.find(args.id())
                            .orElseThrow(() -> ToolFailure.notFound("No order with this id."));
                    if (order.shipped()) {
                        throw ToolFailure.conflict("The order has already shipped.");
                    }
                    orders.cancel(order);
                    return new Cancelled(order.id(), true);
                }))
                .build();
        // end:typed
        return server;
    }

    public static void main(String[] args) throws Exception {
        new TypedOrdersServer().server().serveStdio();
    }
}
