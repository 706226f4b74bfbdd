package orders.springai;

import java.io.IOException;
import java.sql.SQLException;
import java.util.List;
import orders.desk.Order;
import orders.desk.OrderDesk;
import org.springframework.ai.mcp.annotation.McpTool;
import org.springframework.ai.mcp.annotation.McpToolParam;
import org.springframework.ai.tool.annotation.Tool;
import org.springframework.ai.tool.annotation.ToolParam;
import org.springframework.stereotype.Service;

/**
 * The tools, annotated for both of Spring AI's ways to publish a method: {@code @McpTool} (found by the
 * MCP annotation scanner) and {@code @Tool} (published by {@link SpringToolConfiguration}'s
 * ToolCallbackProvider under the profile {@code tool}, which switches the scanner off). Spring AI's
 * contract: a RuntimeException reaches the model as an error result; a declared checked exception
 * "fails the call" instead. So the SQL seed is wrapped the way Spring code usually wraps it (as
 * JdbcTemplate does), and the file seed stays checked.
 */
@Service
public class OrderTools {

    private final OrderDesk desk;

    public OrderTools(OrderDesk desk) {
        this.desk = desk;
    }

    @McpTool(name = "get_order", description = "Fetch an order by id (ord_ followed by digits).")
    @Tool(name = "get_order", description = "Fetch an order by id (ord_ followed by digits).")
    public Order getOrder(@McpToolParam(description = "order id, e.g. ord_1001")
            @ToolParam(description = "order id, e.g. ord_1001") String order_id) throws SQLException {
        return desk.order(order_id);
    }

    @McpTool(name = "order_total", description = "The order's total after its discount, in cents.")
    @Tool(name = "order_total", description = "The order's total after its discount, in cents.")
    public String orderTotal(@McpToolParam(description = "order id")
            @ToolParam(description = "order id") String order_id) throws SQLException {
        return desk.totalAfterDiscount(order_id) + " cents";
    }

    // doc:tool-runtime
    @McpTool(name = "customer_orders", description = "The ids of a customer's orders.")
    @Tool(name = "customer_orders", description = "The ids of a customer's orders.")
    public List<String> customerOrders(@McpToolParam(description = "customer email")
            @ToolParam(description = "customer email") String customer) {
        try {
            return desk.ordersOf(customer);
        } catch (SQLException e) {
            // As Spring's JdbcTemplate would: a runtime exception that carries the driver's message.
            throw new IllegalStateException("Could not list orders: " + e.getMessage(), e);
        }
    }
    // end:tool-runtime

    @McpTool(name = "track_shipment", description = "Where the order's parcel is, from the carrier.")
    @Tool(name = "track_shipment", description = "Where the order's parcel is, from the carrier.")
    public String trackShipment(@McpToolParam(description = "order id")
            @ToolParam(description = "order id") String order_id) {
        return desk.track(order_id);
    }

    // doc:tool-checked
    @McpTool(name = "invoice", description = "The order's invoice as HTML.")
    @Tool(name = "invoice", description = "The order's invoice as HTML.")
    public String invoice(@McpToolParam(description = "order id")
            @ToolParam(description = "order id") String order_id) throws IOException {
        return desk.invoice(order_id);
    }
    // end:tool-checked

    // doc:tool-refusal
    @McpTool(name = "place_order", description = "Place an order for a SKU (quantity 1 to 100).")
    @Tool(name = "place_order", description = "Place an order for a SKU (quantity 1 to 100).")
    public Order placeOrder(@McpToolParam(description = "SKU, e.g. KB-42")
            @ToolParam(description = "SKU, e.g. KB-42") String sku,
            @McpToolParam(description = "how many, 1 to 100")
            @ToolParam(description = "how many, 1 to 100") int quantity) {
        return desk.place(sku, quantity);
    }
    // end:tool-refusal
}
