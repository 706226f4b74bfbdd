package dev.warden.spring.boot;

import dev.warden.server.Tool;
import dev.warden.server.ToolSpec;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ClassUtils;

/**
 * The tools of beans with {@link Tool} methods (a plain {@code @Component} whose methods are
 * annotated): found by type, before any is created, through Spring's {@link MethodIntrospector} (so
 * a proxied bean's annotated methods count, and its proxy is what is called), then turned into specs
 * by {@link ToolSpec#fromMethods(Object)}.
 */
final class AnnotatedToolBeans {

    private AnnotatedToolBeans() {
    }

    static List<ToolSpec> in(ConfigurableListableBeanFactory beans) {
        List<ToolSpec> tools = new ArrayList<>();
        for (String name : beans.getBeanNamesForType(Object.class, false, false)) {
            Optional<Class<?>> type = Optional.ofNullable(beans.getType(name, false));
            if (type.isPresent() && hasTools(ClassUtils.getUserClass(type.get()))) {
                tools.addAll(ToolSpec.fromMethods(beans.getBean(name)));
            }
        }
        return tools;
    }

    static boolean hasTools(Class<?> type) {
        Map<Method, Tool> methods = MethodIntrospector.selectMethods(type,
                (MethodIntrospector.MetadataLookup<Tool>) method ->
                        AnnotatedElementUtils.findMergedAnnotation(method, Tool.class));
        return !methods.isEmpty();
    }
}
