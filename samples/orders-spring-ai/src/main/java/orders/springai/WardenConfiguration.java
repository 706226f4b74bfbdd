package orders.springai;

import dev.warden.core.error.FailureClassifier;
import dev.warden.core.error.ToolFailure;
import java.util.Optional;
import orders.desk.OrderRejected;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * With warden-spring-ai switched on (warden.spring-ai.enabled=true), the desk's refusal is the one
 * failure whose text the model reads: a classifier bean gives it Warden's VALIDATION_ERROR. Everything
 * else thrown becomes INTERNAL_ERROR with a ref, with no change to the tools.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "warden.spring-ai.enabled", havingValue = "true")
public class WardenConfiguration {

    // doc:spring-warden-refusal
    @Bean
    FailureClassifier orderRejections() {
        return thrown -> thrown instanceof OrderRejected rejected
                ? Optional.of(ToolFailure.invalid("", rejected.getMessage()))
                : Optional.empty();
    }
    // end:spring-warden-refusal
}
