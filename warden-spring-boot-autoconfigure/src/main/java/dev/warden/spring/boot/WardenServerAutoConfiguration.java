package dev.warden.spring.boot;

import dev.warden.core.error.FailureClassifier;
import dev.warden.core.incident.ErrorReporter;
import dev.warden.core.incident.FileIncidentStore;
import dev.warden.core.incident.IncidentSink;
import dev.warden.server.CompletionHandler;
import dev.warden.server.McpServer;
import dev.warden.server.PromptSpec;
import dev.warden.server.ResourceSpec;
import dev.warden.server.ResourceTemplateSpec;
import dev.warden.server.ToolSpec;
import dev.warden.telemetry.McpTelemetry;
import io.opentelemetry.api.OpenTelemetry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * One Warden {@link McpServer} from the context: its tools, resources, resource templates and prompts
 * are the beans of those types (and the {@code @Tool} methods of any bean, {@link AnnotatedToolBeans}), its incidents go to the {@link IncidentSink} bean (a
 * {@link FileIncidentStore} unless the application declares its own), and its classifiers and
 * reporters are the beans of those types; its spans go to the application's {@code OpenTelemetry} bean
 * ({@link ServerTelemetryChoice}). How it is served is the HTTP and stdio configurations' job.
 */
@AutoConfiguration
@EnableConfigurationProperties(WardenProperties.class)
public class WardenServerAutoConfiguration {

    /** The server's name when neither {@code warden.mcp.name} nor {@code spring.application.name} is set. */
    static final String DEFAULT_NAME = "warden-mcp-server";

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean(IncidentSink.class)
    FileIncidentStore wardenIncidentStore(WardenProperties properties, Environment environment) {
        return FileIncidentStore.open(properties.incidents().directory(environment));
    }

    @Bean
    @ConditionalOnMissingBean
    McpServer wardenMcpServer(WardenProperties properties, Environment environment, IncidentSink incidents,
                              ObjectProvider<ToolSpec> tools, ObjectProvider<ResourceSpec> resources,
                              ObjectProvider<ResourceTemplateSpec> templates, ObjectProvider<PromptSpec> prompts,
                              ObjectProvider<CompletionHandler> completion,
                              ObjectProvider<FailureClassifier> classifiers, ObjectProvider<ErrorReporter> reporters,
                              ObjectProvider<WardenServerCustomizer> customizers,
                              ObjectProvider<McpTelemetry> telemetry, ObjectProvider<OpenTelemetry> openTelemetry,
                              ConfigurableListableBeanFactory beans) {
        String name = properties.name().orElseGet(() -> environment.getProperty("spring.application.name",
                DEFAULT_NAME));
        McpServer.Builder builder = McpServer.builder(name, properties.version()).incidents(incidents)
                .resourceSubscriptions(properties.resourceSubscriptions());
        properties.title().ifPresent(builder::title);
        properties.instructions().ifPresent(builder::instructions);
        tools.orderedStream().forEach(builder::tool);
        AnnotatedToolBeans.in(beans).forEach(builder::tool);
        resources.orderedStream().forEach(spec -> builder.resource(spec.resource(), spec.reader()));
        templates.orderedStream().forEach(spec -> builder.resourceTemplate(spec.template(), spec.reader()));
        prompts.orderedStream().forEach(builder::prompt);
        completion.ifUnique(builder::completion);
        classifiers.orderedStream().forEach(builder::classifier);
        reporters.orderedStream().forEach(builder::reporter);
        ServerTelemetryChoice.of(telemetry, openTelemetry, properties.telemetry()).ifPresent(builder::telemetry);
        customizers.orderedStream().forEach(customizer -> customizer.customize(builder));
        return builder.build();
    }
}
