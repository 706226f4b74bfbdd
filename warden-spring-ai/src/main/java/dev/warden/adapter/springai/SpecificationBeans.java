package dev.warden.adapter.springai;

import dev.warden.adapter.mcpsdk.WardenGuard;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpStatelessServerFeatures;
import java.util.List;
import java.util.function.Supplier;
import org.springframework.beans.factory.config.BeanPostProcessor;

/**
 * Guards the SDK specifications Spring AI hands its server: the {@code List<Sync*Specification>}
 * (and async, stateless) beans its annotation scanner and tool-callback converter make, and single
 * specification beans an application declares. Spring AI's server collects both kinds of bean, so
 * replacing them here is the one place every tool, resource, prompt and completion passes.
 */
final class SpecificationBeans implements BeanPostProcessor {

    /** Where the SDK's specification records live; the guard decides which of them it takes. */
    private static final String SDK_SERVER = McpServerFeatures.class.getPackageName();

    private final Supplier<WardenGuard> guard;

    /** The guard is looked up at the first specification: a post-processor must not create beans early. */
    SpecificationBeans(Supplier<WardenGuard> guard) {
        this.guard = guard;
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        if (bean instanceof List<?> list && !list.isEmpty() && list.stream().allMatch(SpecificationBeans::candidate)) {
            List<Object> guarded = list.stream().map(this::guarded).toList();
            return guarded.equals(list) ? bean : guarded;
        }
        return candidate(bean) ? guarded(bean) : bean;
    }

    private static boolean candidate(Object value) {
        return value instanceof Record && value.getClass().getPackageName().equals(SDK_SERVER);
    }

    private Object guarded(Object spec) {
        return guard.get().wrapIfSpecification(capturing(spec)).orElse(spec);
    }

    /**
     * A sync handler with a {@link CallSlot} open around Spring AI's: the annotated method's original
     * exception is thrown to the guard instead of the text or the {@code McpError} (-32602 for any
     * resource failure) Spring AI makes of it; an async handler the same, its slot also in Reactor's
     * context, since its method's {@code Mono} may fail on another thread.
     */
    private static Object capturing(Object spec) {
        return switch (spec) {
            case McpServerFeatures.SyncToolSpecification s -> new McpServerFeatures.SyncToolSpecification(
                    s.tool(), (x, r) -> CallSlot.around(() -> s.callHandler().apply(x, r)));
            case McpServerFeatures.SyncResourceSpecification s -> new McpServerFeatures.SyncResourceSpecification(
                    s.resource(), (x, r) -> CallSlot.around(() -> s.readHandler().apply(x, r)));
            case McpServerFeatures.SyncResourceTemplateSpecification s ->
                    new McpServerFeatures.SyncResourceTemplateSpecification(
                            s.resourceTemplate(), (x, r) -> CallSlot.around(() -> s.readHandler().apply(x, r)));
            case McpServerFeatures.SyncPromptSpecification s -> new McpServerFeatures.SyncPromptSpecification(
                    s.prompt(), (x, r) -> CallSlot.around(() -> s.promptHandler().apply(x, r)));
            case McpServerFeatures.SyncCompletionSpecification s -> new McpServerFeatures.SyncCompletionSpecification(
                    s.referenceKey(), (x, r) -> CallSlot.around(() -> s.completionHandler().apply(x, r)));
            case McpStatelessServerFeatures.SyncToolSpecification s ->
                    new McpStatelessServerFeatures.SyncToolSpecification(
                            s.tool(), (x, r) -> CallSlot.around(() -> s.callHandler().apply(x, r)));
            case McpStatelessServerFeatures.SyncResourceSpecification s ->
                    new McpStatelessServerFeatures.SyncResourceSpecification(
                            s.resource(), (x, r) -> CallSlot.around(() -> s.readHandler().apply(x, r)));
            case McpStatelessServerFeatures.SyncResourceTemplateSpecification s ->
                    new McpStatelessServerFeatures.SyncResourceTemplateSpecification(
                            s.resourceTemplate(), (x, r) -> CallSlot.around(() -> s.readHandler().apply(x, r)));
            case McpStatelessServerFeatures.SyncPromptSpecification s ->
                    new McpStatelessServerFeatures.SyncPromptSpecification(
                            s.prompt(), (x, r) -> CallSlot.around(() -> s.promptHandler().apply(x, r)));
            case McpStatelessServerFeatures.SyncCompletionSpecification s ->
                    new McpStatelessServerFeatures.SyncCompletionSpecification(
                            s.referenceKey(), (x, r) -> CallSlot.around(() -> s.completionHandler().apply(x, r)));
            case McpServerFeatures.AsyncToolSpecification s -> new McpServerFeatures.AsyncToolSpecification(
                    s.tool(), (x, r) -> CallSlot.aroundAsync(() -> s.callHandler().apply(x, r)));
            case McpServerFeatures.AsyncResourceSpecification s -> new McpServerFeatures.AsyncResourceSpecification(
                    s.resource(), (x, r) -> CallSlot.aroundAsync(() -> s.readHandler().apply(x, r)));
            case McpServerFeatures.AsyncResourceTemplateSpecification s ->
                    new McpServerFeatures.AsyncResourceTemplateSpecification(
                            s.resourceTemplate(), (x, r) -> CallSlot.aroundAsync(() -> s.readHandler().apply(x, r)));
            case McpServerFeatures.AsyncPromptSpecification s -> new McpServerFeatures.AsyncPromptSpecification(
                    s.prompt(), (x, r) -> CallSlot.aroundAsync(() -> s.promptHandler().apply(x, r)));
            case McpServerFeatures.AsyncCompletionSpecification s -> new McpServerFeatures.AsyncCompletionSpecification(
                    s.referenceKey(), (x, r) -> CallSlot.aroundAsync(() -> s.completionHandler().apply(x, r)));
            case McpStatelessServerFeatures.AsyncToolSpecification s ->
                    new McpStatelessServerFeatures.AsyncToolSpecification(
                            s.tool(), (x, r) -> CallSlot.aroundAsync(() -> s.callHandler().apply(x, r)));
            case McpStatelessServerFeatures.AsyncResourceSpecification s ->
                    new McpStatelessServerFeatures.AsyncResourceSpecification(
                            s.resource(), (x, r) -> CallSlot.aroundAsync(() -> s.readHandler().apply(x, r)));
            case McpStatelessServerFeatures.AsyncResourceTemplateSpecification s ->
                    new McpStatelessServerFeatures.AsyncResourceTemplateSpecification(
                            s.resourceTemplate(), (x, r) -> CallSlot.aroundAsync(() -> s.readHandler().apply(x, r)));
            case McpStatelessServerFeatures.AsyncPromptSpecification s ->
                    new McpStatelessServerFeatures.AsyncPromptSpecification(
                            s.prompt(), (x, r) -> CallSlot.aroundAsync(() -> s.promptHandler().apply(x, r)));
            case McpStatelessServerFeatures.AsyncCompletionSpecification s ->
                    new McpStatelessServerFeatures.AsyncCompletionSpecification(
                            s.referenceKey(), (x, r) -> CallSlot.aroundAsync(() -> s.completionHandler().apply(x, r)));
            default -> spec;
        };
    }
}
