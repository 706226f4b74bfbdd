package orders.springai.hook;

import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.util.List;
import java.util.Optional;
import org.springframework.beans.factory.config.BeanPostProcessor;

/**
 * Wraps each tool handler in Spring AI's {@code List<SyncToolSpecification>} beans ({@code toolSpecs}
 * from McpServerSpecificationFactoryAutoConfiguration for {@code @McpTool}, {@code syncTools} from
 * ToolCallbackConverterAutoConfiguration for {@code @Tool}) before McpServerAutoConfiguration hands
 * them to the SDK. The handler opens the call slot; when the advice filled it, Spring AI's text result
 * is dropped and the {@link ToolFailureHandler}'s answer, built from the original exception, goes out.
 */
final class ToolSpecificationGuard implements BeanPostProcessor {

    private final ToolFailureHandler handler;

    ToolSpecificationGuard(ToolFailureHandler handler) {
        this.handler = handler;
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        if (!(bean instanceof List<?> list) || list.isEmpty()
                || !list.stream().allMatch(SyncToolSpecification.class::isInstance)) {
            return bean;
        }
        return list.stream().map(SyncToolSpecification.class::cast).map(this::guard).toList();
    }

    // doc:guard
    private SyncToolSpecification guard(SyncToolSpecification spec) {
        String tool = spec.tool().name();
        return new SyncToolSpecification(spec.tool(), (exchange, request) -> {
            CallSlot.open();
            CallToolResult result;
            try {
                result = spec.callHandler().apply(exchange, request);
            } catch (RuntimeException | Error e) {
                Optional<Throwable> original = CallSlot.close();
                if (original.isPresent()) {
                    return handler.onFailure(tool, original.get());
                }
                throw e;
            }
            Optional<Throwable> original = CallSlot.close();
            return original.isPresent() ? handler.onFailure(tool, original.get()) : result;
        });
    }
    // end:guard
}
