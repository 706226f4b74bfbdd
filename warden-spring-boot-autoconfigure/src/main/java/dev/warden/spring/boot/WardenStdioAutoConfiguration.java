package dev.warden.spring.boot;

import dev.warden.server.McpServer;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

/** Serves the {@link McpServer} over stdio when {@code warden.mcp.stdio.enabled=true}. */
@AutoConfiguration(after = WardenServerAutoConfiguration.class)
@ConditionalOnSingleCandidate(McpServer.class)
@ConditionalOnProperty(prefix = "warden.mcp.stdio", name = "enabled", havingValue = "true")
public class WardenStdioAutoConfiguration {

    @Bean
    WardenStdioServer wardenStdioServer(McpServer server, ConfigurableApplicationContext context) {
        return new WardenStdioServer(server, context);
    }
}
