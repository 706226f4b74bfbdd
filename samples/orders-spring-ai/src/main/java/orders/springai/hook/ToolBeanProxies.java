package orders.springai.hook;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.List;
import org.springframework.ai.mcp.annotation.McpTool;
import org.springframework.ai.tool.annotation.Tool;
import org.springframework.aop.framework.ProxyFactory;
import org.springframework.aop.support.AopUtils;
import org.springframework.aop.support.DefaultPointcutAdvisor;
import org.springframework.aop.support.StaticMethodMatcherPointcut;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ReflectionUtils;

/**
 * Proxies every bean with {@code @McpTool} or {@code @Tool} methods so that {@link CapturingAdvice}
 * sees their exceptions first. Spring applies Ordered post-processors (whatever their order value)
 * before unordered ones such as Spring AI's scanner {@code ServerAnnotatedMethodBeanPostProcessor},
 * so the scanner registers the proxy: the tool callbacks invoke the proxy, and the advice runs.
 */
final class ToolBeanProxies implements BeanPostProcessor, Ordered {

    private static final List<Class<? extends Annotation>> TOOL_ANNOTATIONS = List.of(McpTool.class, Tool.class);

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        Class<?> type = AopUtils.getTargetClass(bean);
        if (!hasToolMethod(type)) {
            return bean;
        }
        ProxyFactory factory = new ProxyFactory(bean);
        factory.setProxyTargetClass(true);
        factory.addAdvisor(new DefaultPointcutAdvisor(new StaticMethodMatcherPointcut() {
            @Override
            public boolean matches(Method method, Class<?> targetClass) {
                return isTool(method);
            }
        }, new CapturingAdvice()));
        return factory.getProxy(type.getClassLoader());
    }

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }

    private static boolean hasToolMethod(Class<?> type) {
        for (Method method : ReflectionUtils.getUniqueDeclaredMethods(type)) {
            if (isTool(method)) {
                return true;
            }
        }
        return false;
    }

    private static boolean isTool(Method method) {
        return TOOL_ANNOTATIONS.stream().anyMatch(a -> AnnotatedElementUtils.hasAnnotation(method, a));
    }
}
