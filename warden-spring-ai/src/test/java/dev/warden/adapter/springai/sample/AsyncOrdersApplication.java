package dev.warden.adapter.springai.sample;

import dev.warden.core.error.ValidationFailure;
import dev.warden.core.error.Violation;
import java.util.List;
import java.util.Map;
import org.springframework.ai.mcp.annotation.McpTool;
import org.springframework.ai.mcp.annotation.McpToolParam;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * A shop whose {@code @McpTool} methods return {@code Mono}s, for Spring AI's async server: one fails
 * later on another thread, one throws before it returns its {@code Mono}, one refuses for the model.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class AsyncOrdersApplication {

    @Bean
    AsyncOrders asyncOrders() {
        return new AsyncOrders();
    }

    /** The tools; public and non-final so Warden can proxy them. */
    public static class AsyncOrders {

        private final Map<Integer, String> carriers = Map.of();

        @McpTool(name = "order_status", description = "Who carries an order.")
        public Mono<String> orderStatus(@McpToolParam(description = "order id") int id) {
            return Mono.fromCallable(() -> carriers.get(id).trim()).subscribeOn(Schedulers.boundedElastic());
        }

        @McpTool(name = "invoice", description = "An order's invoice, from the billing service.")
        public Mono<String> invoice(@McpToolParam(description = "order id") int id) {
            throw new IllegalStateException("billing at 10.0.0.5:8443 refused the connection");
        }

        @McpTool(name = "cancel_order", description = "Cancels an order.")
        public Mono<String> cancelOrder(@McpToolParam(description = "order id") int id,
                @McpToolParam(description = "customer_request, duplicate or fraud") String reason) {
            return Mono.<String>error(new ValidationFailure(List.of(new Violation("/reason",
                    "must be one of: customer_request, duplicate, fraud"))))
                    .subscribeOn(Schedulers.boundedElastic());
        }

        @McpTool(name = "ping", description = "Answers pong.")
        public Mono<String> ping() {
            return Mono.just("pong").subscribeOn(Schedulers.boundedElastic());
        }
    }
}
