package dev.warden.adapter.springai.sample;

import dev.warden.core.error.ValidationFailure;
import dev.warden.core.error.Violation;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.SQLException;
import java.util.List;
import org.springframework.ai.mcp.annotation.McpArg;
import org.springframework.ai.mcp.annotation.McpPrompt;
import org.springframework.ai.mcp.annotation.McpResource;
import org.springframework.ai.mcp.annotation.McpTool;
import org.springframework.ai.mcp.annotation.McpToolParam;

/**
 * The shop's tools as Spring AI's {@code @McpTool} methods, written as Spring AI's guide writes them:
 * a database error wrapped the way Spring's JdbcTemplate wraps it, a checked exception declared.
 * Nothing here knows Warden but the one failure meant for the model.
 */
public class McpToolOrders {

    private final Shop shop;

    public McpToolOrders(Shop shop) {
        this.shop = shop;
    }

    @McpTool(name = "order_total_stored", description = "An order's stored total, in cents.")
    public int storedTotal(@McpToolParam(description = "order id") int id) throws SQLException {
        return shop.storedTotal(id);
    }

    @McpTool(name = "order_status", description = "Who carries an order.")
    public String orderStatus(@McpToolParam(description = "order id") int id) {
        return shop.carrierOf(id);
    }

    @McpTool(name = "create_order", description = "Places an order.")
    public String createOrder(@McpToolParam(description = "order id") int id) {
        try {
            shop.insert(id, 100);
            return "created";
        } catch (SQLException e) {
            throw new IllegalStateException("Could not create the order: " + e.getMessage(), e);
        }
    }

    @McpTool(name = "order_total", description = "An order's total, in cents.")
    public int orderTotal(@McpToolParam(description = "order id") int id) {
        try {
            return shop.total(id);
        } catch (SQLException e) {
            throw new IllegalStateException("Could not read the order: " + e.getMessage(), e);
        }
    }

    @McpTool(name = "invoice", description = "An order's invoice, from the billing service.")
    public String invoice(@McpToolParam(description = "order id") int id) {
        return shop.invoice(id);
    }

    @McpTool(name = "report", description = "A monthly report, as CSV.")
    public String report(@McpToolParam(description = "file name, e.g. q3.csv") String name) throws IOException {
        return shop.report(name);
    }

    @McpTool(name = "place_order", description = "Places an order for 1 to 100 items.")
    public String placeOrder(@McpToolParam(description = "how many, 1 to 100") int quantity) {
        if (quantity < 1 || quantity > 100) {
            throw new QuantityRejected(quantity, 100);
        }
        return "placed";
    }

    // doc:trusted
    @McpTool(name = "cancel_order", description = "Cancels an order.")
    public String cancelOrder(@McpToolParam(description = "order id") int id,
            @McpToolParam(description = "customer_request, duplicate or fraud") String reason) {
        // The one failure written for the model: what to change, where. Warden sends it as it is.
        throw new ValidationFailure(List.of(new Violation("/reason",
                "must be one of: customer_request, duplicate, fraud")));
    }
    // end:trusted

    @McpResource(uri = "orders://reports/latest", name = "latest-report", description = "The latest report.")
    public String latestReport() {
        try {
            return shop.report("latest.csv");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @McpPrompt(name = "summarize_order", description = "Summarizes an order's shipment.")
    public String summarize(@McpArg(name = "id", description = "order id", required = true) String id) {
        return "Carried by " + shop.carrierOf(Integer.parseInt(id));
    }
}
