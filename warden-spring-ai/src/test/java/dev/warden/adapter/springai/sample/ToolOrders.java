package dev.warden.adapter.springai.sample;

import dev.warden.core.error.ConflictFailure;
import java.io.IOException;
import org.springframework.ai.tool.annotation.Tool;
import org.springframework.ai.tool.annotation.ToolParam;

/** The same shop through Spring AI's {@code @Tool} methods, published by a ToolCallbackProvider. */
public class ToolOrders {

    private final Shop shop;

    public ToolOrders(Shop shop) {
        this.shop = shop;
    }

    @Tool(name = "tool_order_status", description = "Who carries an order.")
    public String orderStatus(@ToolParam(description = "order id") int id) {
        return shop.carrierOf(id);
    }

    @Tool(name = "tool_report", description = "A monthly report, as CSV.")
    public String report(@ToolParam(description = "file name, e.g. q3.csv") String name) throws IOException {
        return shop.report(name);
    }

    @Tool(name = "tool_hold_order", description = "Puts an order on hold.")
    public String holdOrder(@ToolParam(description = "order id") int id) {
        throw new ConflictFailure("order " + id + " has shipped; it can no longer be held", false, null);
    }
}
