package dev.warden.adapter.springai;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.List;
import java.util.stream.Stream;
import org.springframework.aop.Advisor;
import org.springframework.aop.framework.Advised;
import org.springframework.aop.framework.ProxyFactory;
import org.springframework.aop.support.AopUtils;
import org.springframework.aop.support.DefaultPointcutAdvisor;
import org.springframework.aop.support.StaticMethodMatcherPointcut;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * Proxies every bean with {@code @McpTool}, {@code @McpResource}, {@code @McpPrompt},
 * {@code @McpComplete} or {@code @Tool} methods so that {@link CapturingAdvice} sees their exceptions
 * before Spring AI turns them into text. Spring applies {@link Ordered}
 * post-processors before unordered ones such as Spring AI's annotation scanner, so the scanner
 * registers the proxy; a {@code MethodToolCallbackProvider} given the bean gets the proxy too.
 */
final class ToolMethodProxies implements BeanPostProcessor, Ordered {

    /**
     * The methods Spring AI serves and turns the exceptions of into text or into its own error. By
     * name: an application may have Spring AI's MCP annotations without its model module, or the reverse.
     */
    private static final List<String> TOOL_ANNOTATIONS = List.of(
            "org.springframework.ai.mcp.annotation.McpTool", "org.springframework.ai.mcp.annotation.McpResource",
            "org.springframework.ai.mcp.annotation.McpPrompt", "org.springframework.ai.mcp.annotation.McpComplete",
            "org.springframework.ai.tool.annotation.Tool");

    private static final System.Logger LOG = System.getLogger(ToolMethodProxies.class.getName());

    private final List<Class<? extends Annotation>> annotations;

    ToolMethodProxies(ClassLoader loader) {
        this.annotations = TOOL_ANNOTATIONS.stream().filter(name -> ClassUtils.isPresent(name, loader))
                .<Class<? extends Annotation>>map(name -> ClassUtils.resolveClassName(name, loader)
                        .asSubclass(Annotation.class))
                .toList();
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        Class<?> type = AopUtils.getTargetClass(bean);
        if (Stream.of(ReflectionUtils.getUniqueDeclaredMethods(type)).noneMatch(this::isTool)) {
            return bean;
        }
        Advisor capturing = new DefaultPointcutAdvisor(new StaticMethodMatcherPointcut() {
            @Override
            public boolean matches(Method method, Class<?> targetClass) {
                return isTool(method);
            }
        }, new CapturingAdvice());
        if (bean instanceof Advised proxy && AopUtils.isAopProxy(bean) && !proxy.isFrozen()) {
            // Already a proxy (@Transactional, @Async, ...): the advice goes first in it, around the others,
            // so it sees what they throw too, as Spring's own advising post-processors do.
            proxy.addAdvisor(0, capturing);
            return bean;
        }
        if (Modifier.isFinal(type.getModifiers()) || hasFinalMethod(type)) {
            // A class proxy is a subclass: it fails for a final class, and a final method would run on the
            // proxy's own empty instance (fields null). Failing the application's start would break what works.
            LOG.log(System.Logger.Level.WARNING, () -> type.getName() + " is final or has final methods, so "
                    + "Warden cannot see its methods' exceptions before Spring AI turns them into text; "
                    + "make the class and its methods non-final");
            return bean;
        }
        ProxyFactory factory = new ProxyFactory(bean);
        factory.setProxyTargetClass(true);
        factory.addAdvisor(capturing);
        return factory.getProxy(type.getClassLoader());
    }

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }

    /** A final instance method a subclass proxy cannot override, other than {@link Object}'s own. */
    private static boolean hasFinalMethod(Class<?> type) {
        return Stream.of(ReflectionUtils.getUniqueDeclaredMethods(type))
                .filter(m -> m.getDeclaringClass() != Object.class)
                .mapToInt(Method::getModifiers)
                .anyMatch(m -> Modifier.isFinal(m) && !Modifier.isPrivate(m) && !Modifier.isStatic(m));
    }

    private boolean isTool(Method method) {
        return annotations.stream().anyMatch(a -> AnnotatedElementUtils.hasAnnotation(method, a));
    }
}
