package dev.warden.examples.spring;

import dev.warden.examples.conformance.ConformanceServer;
import dev.warden.server.CompletionHandler;
import dev.warden.server.PromptSpec;
import dev.warden.server.ResourceSpec;
import dev.warden.server.ResourceTemplateSpec;
import dev.warden.server.ToolSpec;
import java.util.List;
import java.util.function.Function;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.BeanDefinitionRegistryPostProcessor;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The conformance fixture (warden-examples) as beans, one bean per tool, resource, template and
 * prompt, so that the conformance suite run against this application goes through the starter's
 * bean collection rather than a server built by hand.
 */
@Configuration(proxyBeanMethods = false)
class ConformanceBeans {

    @Bean
    static BeanDefinitionRegistryPostProcessor conformanceSpecs() {
        return registry -> {
            register(registry, ToolSpec.class, ConformanceServer.tools(), ToolSpec::name);
            register(registry, ResourceSpec.class, ConformanceServer.resources(), spec -> spec.resource().uri());
            register(registry, ResourceTemplateSpec.class, ConformanceServer.templates(),
                    spec -> spec.template().uriTemplate());
            register(registry, PromptSpec.class, ConformanceServer.prompts(), spec -> spec.prompt().name());
        };
    }

    @Bean
    CompletionHandler conformanceCompletion() {
        return ConformanceServer.completion();
    }

    private static <T> void register(BeanDefinitionRegistry registry, Class<T> type, List<T> specs,
                                     Function<T, String> name) {
        for (T spec : specs) {
            registry.registerBeanDefinition("conformance:" + name.apply(spec), new RootBeanDefinition(type, () -> spec));
        }
    }
}
