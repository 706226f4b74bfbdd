package dev.warden.spring.boot;

import dev.warden.core.identity.Authenticator;
import dev.warden.server.McpServer;
import java.util.Optional;
import org.eclipse.jetty.server.Server;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.jetty.JettyServerCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.env.Environment;

/**
 * The MCP endpoint on the application's own Jetty, beside Spring MVC, when
 * {@code warden.mcp.http.server=application} and the application runs {@code spring-boot-starter-jetty}
 * (Jetty 12.1, as Warden). Its host checks, limits and authenticator are Warden's, as on its own
 * Jetty; the interface is Boot's {@code server.address} (all of them when unset, which then needs
 * {@code warden.mcp.http.allowed-hosts} and an authenticator). Spring Security does not see it.
 */
@AutoConfiguration(after = WardenServerAutoConfiguration.class)
@ConditionalOnClass({JettyServerCustomizer.class, Server.class})
@ConditionalOnWebApplication
@ConditionalOnSingleCandidate(McpServer.class)
@Conditional(OnHttpEnabled.class)
@ConditionalOnProperty(prefix = "warden.mcp.http", name = "server", havingValue = "application")
public class WardenJettyMountAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean(WardenHttpEndpoint.class)
    WardenJettyMount wardenJettyMount(McpServer server, WardenProperties properties,
                                      ObjectProvider<Authenticator> authenticator, Environment environment) {
        String host = environment.getProperty("server.address", "0.0.0.0");
        return new WardenJettyMount(EndpointBuilder.of(server, properties.http(), host,
                Optional.ofNullable(authenticator.getIfUnique())).buildHandler(), host, server.info().name());
    }

    @Bean
    JettyServerCustomizer wardenJettyCustomizer(WardenJettyMount mount) {
        return mount::mount;
    }
}
