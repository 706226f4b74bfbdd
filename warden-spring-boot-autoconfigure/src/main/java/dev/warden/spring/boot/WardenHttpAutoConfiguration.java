package dev.warden.spring.boot;

import dev.warden.core.identity.Authenticator;
import dev.warden.server.McpServer;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * Serves the {@link McpServer} over Streamable HTTP on Warden's own Jetty ({@code warden.mcp.http.server=own},
 * the default), with every request checked by the {@link Authenticator} bean when there is one. Spring
 * Security's filters do not see this endpoint: it is not a servlet.
 */
@AutoConfiguration(after = WardenServerAutoConfiguration.class)
@ConditionalOnSingleCandidate(McpServer.class)
@Conditional(OnHttpEnabled.class)
public class WardenHttpAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean(WardenHttpEndpoint.class)
    @ConditionalOnProperty(prefix = "warden.mcp.http", name = "server", havingValue = "own", matchIfMissing = true)
    WardenHttpServerLifecycle wardenHttpServer(McpServer server, WardenProperties properties,
                                               ObjectProvider<Authenticator> authenticator,
                                               ConfigurableEnvironment environment) {
        return new WardenHttpServerLifecycle(server, properties.http(),
                java.util.Optional.ofNullable(authenticator.getIfUnique()), environment);
    }

    /**
     * {@code warden.mcp.http.server=application} where the application's web server is not Jetty (or
     * there is none): the application does not start, rather than serve no endpoint without a word.
     */
    @Bean
    @ConditionalOnProperty(prefix = "warden.mcp.http", name = "server", havingValue = "application")
    static org.springframework.beans.factory.SmartInitializingSingleton wardenHttpMountCheck(
            ObjectProvider<WardenHttpEndpoint> endpoint) {
        return () -> {
            if (endpoint.getIfAvailable() == null) {
                throw new IllegalStateException("warden.mcp.http.server=application needs the application to run "
                        + "on Jetty (spring-boot-starter-jetty, in place of Tomcat); otherwise leave it unset to "
                        + "serve MCP on Warden's own Jetty (warden.mcp.http.port)");
            }
        };
    }
}
