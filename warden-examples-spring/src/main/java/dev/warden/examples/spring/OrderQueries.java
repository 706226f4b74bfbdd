package dev.warden.examples.spring;

import dev.warden.core.error.ToolFailure;
import dev.warden.server.Tool;
import dev.warden.server.ToolParam;
import org.springframework.stereotype.Component;

/**
 * Annotated tools as docs/guides/spring-boot.md shows them: any bean's {@link Tool} methods are
 * tools of the application's MCP server.
 */
// doc:annotated-bean
@Component
public class OrderQueries {
    private final OrderTools.Orders orders;

    public OrderQueries(OrderTools.Orders orders) {
        this.orders = orders;
    }

    @Tool(description = "Tells whether an order has shipped.", readOnly = true, destructive = false)
    public String orderStatus(@ToolParam(description = "The order's id") String id) {
        if (!orders.exists(id)) {
            throw ToolFailure.notFound("No order with this id.");
        }
        return orders.shipped(id) ? "shipped" : "not shipped";
    }
}
// end:annotated-bean
