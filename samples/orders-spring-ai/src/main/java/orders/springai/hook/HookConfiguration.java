package orders.springai.hook;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The prototype of the in-process hook (orders.hook=true): two bean post-processors, static so they
 * are created before the beans they process. A {@link ToolFailureHandler} bean (Warden's adapter)
 * takes over from the sample's {@link EvidenceHandler}.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "orders.hook", havingValue = "true")
public class HookConfiguration {

    @Bean
    static ToolBeanProxies toolBeanProxies() {
        return new ToolBeanProxies();
    }

    @Bean
    static ToolSpecificationGuard toolSpecificationGuard(ObjectProvider<ToolFailureHandler> handler) {
        // Looked up per failure: a static post-processor must not pull the handler's beans in early.
        return new ToolSpecificationGuard((tool, original) -> handler.getObject().onFailure(tool, original));
    }

    @Bean
    @ConditionalOnMissingBean
    ToolFailureHandler evidenceHandler() {
        return new EvidenceHandler();
    }
}
