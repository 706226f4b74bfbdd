package orders.quarkus;

import io.quarkiverse.mcp.server.Tool;
import io.quarkiverse.mcp.server.ToolArg;
import io.quarkiverse.mcp.server.WrapBusinessError;
import java.io.IOException;
import java.sql.SQLException;
import java.util.List;
import orders.desk.Order;
import orders.desk.OrderDesk;
import orders.desk.OrderRejected;

/**
 * The tools as Quarkus MCP {@code @Tool} methods. {@code @WrapBusinessError} is Quarkus's way to
 * say which exceptions are the model's to read: it turns an OrderRejected into a ToolCallException.
 */
// doc:quarkus-class
@WrapBusinessError(OrderRejected.class)
public class OrderTools {
    // end:quarkus-class

    private final OrderDesk desk;

    OrderTools(OrderDesk desk) {
        this.desk = desk;
    }

    @Tool(name = "get_order", description = "Fetch an order by id (ord_ followed by digits).")
    Order getOrder(@ToolArg(description = "order id, e.g. ord_1001") String order_id) throws SQLException {
        return desk.order(order_id);
    }

    @Tool(name = "order_total", description = "The order's total after its discount, in cents.")
    String orderTotal(@ToolArg(description = "order id") String order_id) throws SQLException {
        return desk.totalAfterDiscount(order_id) + " cents";
    }

    // doc:quarkus-leaky
    @Tool(name = "customer_orders", description = "The ids of a customer's orders.")
    List<String> customerOrders(@ToolArg(description = "customer email") String customer) {
        try {
            return desk.ordersOf(customer);
        } catch (SQLException e) {
            // As a data-access layer would: a runtime exception that carries the driver's message.
            throw new IllegalStateException("Could not list orders: " + e.getMessage(), e);
        }
    }
    // end:quarkus-leaky

    @Tool(name = "track_shipment", description = "Where the order's parcel is, from the carrier.")
    String trackShipment(@ToolArg(description = "order id") String order_id) {
        return desk.track(order_id);
    }

    @Tool(name = "invoice", description = "The order's invoice as HTML.")
    String invoice(@ToolArg(description = "order id") String order_id) throws IOException {
        return desk.invoice(order_id);
    }

    // doc:quarkus-tool
    @Tool(name = "place_order", description = "Place an order for a SKU (quantity 1 to 100).")
    Order placeOrder(@ToolArg(description = "SKU, e.g. KB-42") String sku,
            @ToolArg(description = "how many, 1 to 100") int quantity) {
        return desk.place(sku, quantity);
    }
    // end:quarkus-tool
}
