package orders.mcpsdk;

import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import orders.desk.OrderDesk;
import orders.desk.OrderRejected;

/**
 * The desk's six methods as the official SDK's tool specifications, written as its users write them:
 * a schema, a handler per tool, checked exceptions wrapped (a handler is a lambda that may throw
 * only unchecked ones), the refusal returned as an {@code isError} result, everything else thrown.
 */
public final class OrderSpecs {

    private OrderSpecs() {
    }

    public static List<SyncToolSpecification> tools(OrderDesk desk) {
        return List.of(
                tool("get_order", "Fetch an order by id (ord_ followed by digits).", "order_id",
                        args -> text(String.valueOf(sql(() -> desk.order(string(args, "order_id")))))),
                tool("order_total", "The order's total after its discount, in cents.", "order_id",
                        args -> text(sql(() -> desk.totalAfterDiscount(string(args, "order_id"))) + " cents")),
                // doc:sdk-leaky
                tool("customer_orders", "The ids of a customer's orders.", "customer", args -> {
                    try {
                        return text(String.join(", ", desk.ordersOf(string(args, "customer"))));
                    } catch (SQLException e) {
                        throw new IllegalStateException("Could not list orders: " + e.getMessage(), e);
                    }
                }),
                // end:sdk-leaky
                tool("track_shipment", "Where the order's parcel is, from the carrier.", "order_id",
                        args -> text(desk.track(string(args, "order_id")))),
                tool("invoice", "The order's invoice as HTML.", "order_id", args -> {
                    try {
                        return text(desk.invoice(string(args, "order_id")));
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }),
                // doc:sdk-refusal
                tool("place_order", "Place an order for a SKU (quantity 1 to 100).", "sku", args -> {
                    try {
                        int quantity = ((Number) args.get("quantity")).intValue();
                        return text(String.valueOf(desk.place(string(args, "sku"), quantity)));
                    } catch (OrderRejected e) {
                        // The one text written for the model: a tool error it reads and acts on.
                        return CallToolResult.builder().addTextContent(e.getMessage()).isError(true).build();
                    }
                })
                // end:sdk-refusal
        );
    }

    private interface Handler {
        CallToolResult call(Map<String, Object> arguments);
    }

    private interface Query<T> {
        T run() throws SQLException;
    }

    private static SyncToolSpecification tool(String name, String description, String argument, Handler handler) {
        Map<String, Object> properties = name.equals("place_order")
                ? Map.of("sku", Map.of("type", "string"), "quantity", Map.of("type", "integer"))
                : Map.of(argument, Map.of("type", "string"));
        McpSchema.Tool tool = McpSchema.Tool.builder(name, Map.of("type", "object", "properties", properties))
                .description(description).build();
        return new SyncToolSpecification(tool, (exchange, request) -> handler.call(request.arguments()));
    }

    private static <T> T sql(Query<T> query) {
        try {
            return query.run();
        } catch (SQLException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    private static String string(Map<String, Object> arguments, String name) {
        return String.valueOf(arguments.get(name));
    }

    private static CallToolResult text(String text) {
        return CallToolResult.builder().addTextContent(text).isError(false).build();
    }
}
