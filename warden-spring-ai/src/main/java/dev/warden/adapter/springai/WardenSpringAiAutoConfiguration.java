package dev.warden.adapter.springai;

import dev.warden.adapter.mcpsdk.WardenGuard;
import dev.warden.core.error.FailureClassifier;
import dev.warden.core.incident.ErrorReporter;
import dev.warden.core.incident.IncidentSink;
import org.springframework.ai.mcp.customizer.McpAsyncServerCustomizer;
import org.springframework.ai.mcp.customizer.McpSyncServerCustomizer;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;

/**
 * Warden's errors for Spring AI's MCP server, switched on by this jar's presence
 * ({@code warden.spring-ai.enabled=false} switches it off): the specifications Spring AI hands its
 * server are guarded by a {@link WardenGuard}, the {@code @McpTool} and {@code @Tool} methods' exceptions
 * reach that guard before Spring AI turns them into text, and the JSON mappers its transports write
 * with put Warden's error where they would write an exception; the stateful server converts request
 * params with the guard's mapper. A {@code WardenGuard} bean of the application's own replaces the
 * default one; so does an {@link IncidentSink} bean for its store.
 */
// After Spring AI's server configuration, so that its customizer bean is seen (one only is taken).
@AutoConfiguration(afterName = "org.springframework.ai.mcp.server.common.autoconfigure.McpServerAutoConfiguration")
@ConditionalOnClass(name = "org.springframework.ai.mcp.server.common.autoconfigure.McpServerAutoConfiguration")
@ConditionalOnProperty(prefix = "warden.spring-ai", name = "enabled", havingValue = "true", matchIfMissing = true)
public class WardenSpringAiAutoConfiguration {

    /**
     * The guard: incidents to the application's {@link IncidentSink} bean, else to the file store in
     * Warden's data directory (where {@code warden incidents show REF} looks); the application's
     * {@link FailureClassifier} beans consulted first, its {@link ErrorReporter} beans told.
     */
    @Bean
    @ConditionalOnMissingBean
    WardenGuard wardenGuard(ObjectProvider<IncidentSink> incidents, ObjectProvider<FailureClassifier> classifiers,
            ObjectProvider<ErrorReporter> reporters) {
        WardenGuard.Builder builder = WardenGuard.builder();
        incidents.ifUnique(builder::incidents);
        classifiers.orderedStream().forEach(builder::classifier);
        reporters.orderedStream().forEach(builder::reporter);
        return builder.build();
    }

    // The post-processors are static, so that they exist before the beans they process; each finds
    // the guard when it first needs it.

    @Bean
    static SpecificationBeans wardenSpecificationBeans(ObjectProvider<WardenGuard> guard) {
        return new SpecificationBeans(guard::getObject);
    }

    @Bean
    static ToolMethodProxies wardenToolMethodProxies() {
        return new ToolMethodProxies(WardenSpringAiAutoConfiguration.class.getClassLoader());
    }

    @Bean
    static ServerCustomizers wardenServerCustomizers(ObjectProvider<WardenGuard> guard) {
        return new ServerCustomizers(guard::getObject);
    }

    /**
     * Where neither Spring AI (whose own is for servlet applications only) nor the application has a
     * customizer, an empty one, which {@link ServerCustomizers} makes give the server the guard's
     * mapper: a customizer is the only way to the server's builder.
     */
    @Bean
    @ConditionalOnMissingBean
    McpSyncServerCustomizer wardenSyncServerCustomizer() {
        return spec -> { };
    }

    @Bean
    @ConditionalOnMissingBean
    McpAsyncServerCustomizer wardenAsyncServerCustomizer() {
        return spec -> { };
    }

    @Bean
    static JsonMapperBeans wardenJsonMapperBeans(ObjectProvider<WardenGuard> guard) {
        return new JsonMapperBeans(guard::getObject);
    }
}
