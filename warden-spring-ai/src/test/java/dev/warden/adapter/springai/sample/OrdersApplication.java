package dev.warden.adapter.springai.sample;

import java.nio.file.Path;
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
}
