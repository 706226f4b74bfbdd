package dev.warden.adapter.springai;

import dev.warden.adapter.mcpsdk.WardenGuard;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import java.util.function.Supplier;
import org.springframework.ai.mcp.customizer.McpAsyncServerCustomizer;
import org.springframework.ai.mcp.customizer.McpSyncServerCustomizer;
import org.springframework.beans.factory.config.BeanPostProcessor;

/**
 * Gives Spring AI's stateful server the guard's {@link McpJsonMapper}: the SDK turns each request's
 * params into its request record with the server's mapper, and only the guard's makes params that do
 * not fit ({@code "arguments":"oops"}) the caller's -32602 rather than an internal error. Spring AI
 * 2.0.1 builds the server without a mapper (so the SDK's default, {@link McpJsonDefaults#getMapper()},
 * which stays the base here) and reaches the builder only through the one customizer bean it takes
 * ({@code Optional<McpSyncServerCustomizer>}): its own for servlet applications, the application's,
 * or else Warden's (see {@code WardenSpringAiAutoConfiguration}). Each is wrapped here. Spring AI's
 * stateless server takes no customizer, so it keeps the SDK's mapper.
 */
final class ServerCustomizers implements BeanPostProcessor {

    private final Supplier<WardenGuard> guard;

    ServerCustomizers(Supplier<WardenGuard> guard) {
        this.guard = guard;
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        return switch (bean) {
            case GuardedSync c -> c;
            case GuardedAsync c -> c;
            case McpSyncServerCustomizer c -> (GuardedSync) spec -> {
                c.customize(spec);
                spec.jsonMapper(mapper());
            };
            case McpAsyncServerCustomizer c -> (GuardedAsync) spec -> {
                c.customize(spec);
                spec.jsonMapper(mapper());
            };
            default -> bean;
        };
    }

    private McpJsonMapper mapper() {
        return guard.get().jsonMapper(McpJsonDefaults.getMapper());
    }

    /** A customizer already wrapped (a bean post-processed twice keeps one wrapper). */
    private interface GuardedSync extends McpSyncServerCustomizer {
    }

    private interface GuardedAsync extends McpAsyncServerCustomizer {
    }
}
