package dev.warden.spring.boot;

import dev.warden.core.incident.IncidentSink;
import dev.warden.server.McpServer;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;

/** The {@code warden} health component, when Actuator's health support is on the class path. */
@AutoConfiguration(after = {WardenServerAutoConfiguration.class, WardenHttpAutoConfiguration.class})
@ConditionalOnClass(HealthIndicator.class)
@ConditionalOnSingleCandidate(McpServer.class)
@ConditionalOnEnabledHealthIndicator("warden")
public class WardenHealthAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean(name = "wardenHealthIndicator")
    HealthIndicator wardenHealthIndicator(IncidentSink incidents, ObjectProvider<WardenHttpEndpoint> http) {
        return new WardenHealthIndicator(incidents, java.util.Optional.ofNullable(http.getIfAvailable()));
    }
}
