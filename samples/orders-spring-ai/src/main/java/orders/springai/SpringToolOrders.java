package orders.springai;

import java.io.IOException;
import java.sql.SQLException;
import java.util.List;
import orders.desk.Order;
import orders.desk.OrderDesk;
import org.springframework.ai.tool.annotation.Tool;
import org.springframework.ai.tool.annotation.ToolParam;

/**
 * The same tools as Spring AI {@code @Tool} methods, which the MCP server starter publishes through a
 * {@code ToolCallbackProvider} bean ({@link SpringToolConfiguration}).
 */
public class SpringToolOrders {

    private final OrderDesk desk;

    public SpringToolOrders(OrderDesk desk) {
        this.desk = desk;
    }

    @Tool(name = "get_order", description = "Fetch an order by id (ord_ followed by digits).")
    public Order getOrder(@ToolParam(description = "order id, e.g. ord_1001") String order_id) throws SQLException {
        return desk.order(order_id);
    }

    @Tool(name = "order_total", description = "The order's total after its discount, in cents.")
    public String orderTotal(@ToolParam(description = "order id") String order_id) throws SQLException {
        return desk.totalAfterDiscount(order_id) + " cents";
    }

    @Tool(name = "customer_orders", description = "The ids of a customer's orders.")
    public List<String> customerOrders(@ToolParam(description = "customer email") String customer) {
        try {
            return desk.ordersOf(customer);
        } catch (SQLException e) {
            // As Spring's JdbcTemplate would: a runtime exception that carries the driver's message.
            throw new IllegalStateException("Could not list orders: " + e.getMessage(), e);
        }
    }

    @Tool(name = "track_shipment", description = "Where the order's parcel is, from the carrier.")
    public String trackShipment(@ToolParam(description = "order id") String order_id) {
        return desk.track(order_id);
    }

    @Tool(name = "invoice", description = "The order's invoice as HTML.")
    public String invoice(@ToolParam(description = "order id") String order_id) throws IOException {
        return desk.invoice(order_id);
    }

    @Tool(name = "place_order", description = "Place an order for a SKU (quantity 1 to 100).")
    public Order placeOrder(@ToolParam(description = "SKU, e.g. KB-42") String sku,
            @ToolParam(description = "how many, 1 to 100") int quantity) {
        return desk.place(sku, quantity);
    }
}
