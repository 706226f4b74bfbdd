package orders.springai;

import org.springframework.ai.tool.ToolCallbackProvider;
import org.springframework.ai.tool.method.MethodToolCallbackProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Publishes the {@code @Tool} methods when orders.tools=tool (the profile {@code tool}). */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "orders.tools", havingValue = "tool")
public class SpringToolConfiguration {

    @Bean
    ToolCallbackProvider orderToolCallbacks(OrderTools tools) {
        return MethodToolCallbackProvider.builder().toolObjects(tools).build();
    }
}
