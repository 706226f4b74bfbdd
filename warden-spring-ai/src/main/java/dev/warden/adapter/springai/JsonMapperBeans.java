package dev.warden.adapter.springai;

import dev.warden.adapter.mcpsdk.WardenGuard;
import java.util.function.Supplier;
import org.springframework.beans.factory.config.BeanPostProcessor;
import tools.jackson.databind.json.JsonMapper;

/**
 * Adds {@link TransportErrorModule} to every {@code JsonMapper} bean: Spring AI's
 * {@code mcpServerJsonMapper}, which its transports write MCP messages with, and Spring Boot's, which
 * Spring MVC writes the transports' error bodies with. Boot's own module beans do not reach Spring
 * AI's mapper, hence a post-processor for both.
 */
final class JsonMapperBeans implements BeanPostProcessor {

    private final Supplier<WardenGuard> guard;

    JsonMapperBeans(Supplier<WardenGuard> guard) {
        this.guard = guard;
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        if (bean instanceof JsonMapper mapper && !mapper.registeredModules().stream()
                .anyMatch(m -> m instanceof TransportErrorModule)) {
            return mapper.rebuild().addModule(new TransportErrorModule(guard)).build();
        }
        return bean;
    }
}
