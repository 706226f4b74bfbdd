package dev.warden.adapter.springai.sample;

import dev.warden.core.error.FailureClassifier;
import dev.warden.core.error.ValidationFailure;
import dev.warden.core.error.Violation;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.springframework.ai.tool.ToolCallbackProvider;
import org.springframework.ai.tool.method.MethodToolCallbackProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * The shop as a Spring AI MCP server (Streamable HTTP on Spring MVC at /mcp): its {@code @McpTool}
 * methods found by Spring AI's scanner, its {@code @Tool} methods published as callbacks. Warden is
 * only on the class path; {@code warden.spring-ai.enabled=false} serves it as Spring AI alone does.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class OrdersApplication {

    @Bean
    Shop shop(@Value("${orders.jdbc-url}") String jdbcUrl, @Value("${orders.reports}") Path reports) {
        return new Shop(jdbcUrl, reports);
    }

    @Bean
    McpToolOrders mcpToolOrders(Shop shop) {
        return new McpToolOrders(shop);
    }

    @Bean
    ToolOrders toolOrders(Shop shop) {
        return new ToolOrders(shop);
    }

    @Bean
    ToolCallbackProvider toolCallbacks(ToolOrders tools) {
        return MethodToolCallbackProvider.builder().toolObjects(tools).build();
    }

    // doc:classifier
    /** The shop's own refusal, told to the model in words written for it (never the exception's message). */
    @Bean
    FailureClassifier quantityRejections() {
        return thrown -> thrown instanceof QuantityRejected rejected
                ? Optional.of(new ValidationFailure(List.of(
                        new Violation("/quantity", "must be between 1 and " + rejected.max()))))
                : Optional.empty();
    }
    // end:classifier
}
