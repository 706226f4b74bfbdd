package orders.warden;

import dev.warden.core.error.ToolFailure;
import dev.warden.server.Tool;
import dev.warden.server.ToolParam;
import java.io.IOException;
import java.sql.SQLException;
import orders.desk.Order;
import orders.desk.OrderDesk;
import orders.desk.OrderRejected;

/**
 * The tools as warden-server's annotated methods. Nothing is wrapped: whatever a method throws goes to
 * Warden's boundary (a SQLException by its SQLSTATE, anything else INTERNAL_ERROR with a ref); the
 * refusal written for the model is a ToolFailure, sent as written. Tool names are the methods' in snake_case.
 */
public class OrderTools {

    private final OrderDesk desk;

    public OrderTools(OrderDesk desk) {
        this.desk = desk;
    }

    @Tool(description = "Fetch an order by id (ord_ followed by digits).", readOnly = true, destructive = false)
    public Order getOrder(@ToolParam(description = "order id, e.g. ord_1001") String order_id) throws SQLException {
        return desk.order(order_id);
    }

    @Tool(description = "The order's total after its discount, in cents.", readOnly = true, destructive = false)
    public String orderTotal(@ToolParam(description = "order id") String order_id) throws SQLException {
        return desk.totalAfterDiscount(order_id) + " cents";
    }

    // doc:warden-leaky
    @Tool(description = "The ids of a customer's orders.", readOnly = true, destructive = false)
    public String customerOrders(@ToolParam(description = "customer email") String customer) throws SQLException {
        return String.join(", ", desk.ordersOf(customer));
    }
    // end:warden-leaky

    @Tool(description = "Where the order's parcel is, from the carrier.", readOnly = true, destructive = false)
    public String trackShipment(@ToolParam(description = "order id") String order_id) {
        return desk.track(order_id);
    }

    @Tool(description = "The order's invoice as HTML.", readOnly = true, destructive = false)
    public String invoice(@ToolParam(description = "order id") String order_id) throws IOException {
        return desk.invoice(order_id);
    }

    // doc:warden-refusal
    @Tool(description = "Place an order for a SKU (quantity 1 to 100).")
    public Order placeOrder(@ToolParam(description = "SKU, e.g. KB-42") String sku,
            @ToolParam(description = "how many, 1 to 100") int quantity) {
        try {
            return desk.place(sku, quantity);
        } catch (OrderRejected e) {
            // The one text written for the model: sent as written, with the code VALIDATION_ERROR.
            throw ToolFailure.invalid("/quantity", e.getMessage());
        }
    }
    // end:warden-refusal
}
