package orders;

import io.quarkiverse.mcp.server.Tool;
import io.quarkiverse.mcp.server.ToolArg;
import io.quarkiverse.mcp.server.WrapBusinessError;
import jakarta.inject.Inject;
import java.io.IOException;

/**
 * An order desk as the Quarkiverse MCP docs show it: @Tool methods whose arguments the extension
 * maps from the JSON, business exceptions wrapped into tool errors with @WrapBusinessError, and the
 * carrier and payment services' failures left to the framework.
 */
@WrapBusinessError({IllegalArgumentException.class, IllegalStateException.class})
public class OrderDesk {

    @Inject
    Orders orders;

    @Inject
    Partners partners;

    @Tool(name = "get_order", description = "Fetch an order by id (ord_ followed by digits).")
    String getOrder(@ToolArg(description = "order id, e.g. ord_123") String order_id) {
        return orders.find(order_id).toString();
    }

    @Tool(name = "cancel_order", description = "Cancel an order that has not shipped yet.")
    String cancelOrder(@ToolArg(description = "order id") String order_id,
            @ToolArg(description = "why the customer cancels") String reason) {
        return orders.cancel(order_id, reason).toString();
    }

    @Tool(name = "refund_order", description = "Refund part or all of a paid order, in cents.")
    String refundOrder(@ToolArg(description = "order id") String order_id,
            @ToolArg(description = "amount to refund, in cents") int amount_cents) throws IOException, InterruptedException {
        Orders.Order o = orders.refundable(order_id, amount_cents);
        return partners.refund(o.paymentId(), amount_cents);
    }

    @Tool(name = "track_shipment", description = "Ask the carrier where a shipped order is.")
    String trackShipment(@ToolArg(description = "order id") String order_id) throws IOException, InterruptedException {
        Orders.Order o = orders.find(order_id);
        if (o.trackingNumber() == null) {
            throw new IllegalStateException("Order " + order_id + " has not shipped yet");
        }
        return partners.track(o.trackingNumber());
    }
}
