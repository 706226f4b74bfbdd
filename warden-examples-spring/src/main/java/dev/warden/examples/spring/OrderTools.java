package dev.warden.examples.spring;

import dev.warden.core.error.ToolFailure;
import dev.warden.server.ToolResult;
import dev.warden.server.ToolSpec;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * A tool bean as docs/guides/spring-boot.md shows it (the blocks between "doc:" and "end:" are
 * quoted there word for word): a {@link ToolSpec} bean is a tool of the application's MCP server.
 */
@Configuration(proxyBeanMethods = false)
class OrderTools {

    /** What the tool works on: orders by id, and whether each has shipped. */
    static final class Orders {
        private final Map<String, Boolean> shipped = new ConcurrentHashMap<>(Map.of("o-1", false, "o-2", true, "o-3", false));

        boolean exists(String id) {
            return shipped.containsKey(id);
        }

        boolean shipped(String id) {
            return shipped.get(id);
        }

        void cancel(String id) {
            if (id.equals("o-3")) {
                // What a driver says when the database is down: the caller must never read it.
                throw new IllegalStateException("Connection to db.internal:5432 refused (user=orders_admin)");
            }
            shipped.remove(id);
        }
    }

    @Bean
    Orders orders() {
        return new Orders();
    }

    // doc:tool-bean
    @Bean
    ToolSpec cancelOrder(Orders orders) {
        return ToolSpec.builder("cancel_order")
                .description("Cancels an order that has not shipped yet.")
                .inputSchema("""
                        {"type":"object","properties":{"id":{"type":"string","pattern":"^o-[0-9]+$"}},
                         "required":["id"]}""")
                .handler(call -> {
                    String id = call.string("id").orElseThrow();
                    if (!orders.exists(id)) {
                        throw ToolFailure.notFound("No order with this id.");
                    }
                    if (orders.shipped(id)) {
                        return ToolResult.failed(ToolFailure.conflict("The order has already shipped."));
                    }
                    orders.cancel(id);      // any other exception: INTERNAL_ERROR and a ref, the detail in the incident
                    return ToolResult.text("Cancelled.");
                })
                .build();
    }
    // end:tool-bean
}
