package dev.warden.adapter.springai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.Map;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.junit.jupiter.api.Test;
import org.springframework.aop.framework.ProxyFactory;
import org.springframework.ai.tool.annotation.Tool;

/**
 * The slot and the advice without Spring AI: inside a guarded call the original exception reaches
 * the handler's caller past Spring AI's {@code catch}; outside one (a chat client calling the
 * same @Tool method) the method throws what it throws; a failure the tool itself recovers from is
 * no failure of the call.
 */
class CapturingAdviceTest {

    public static class Tools {
        private Tools self;

        @Tool(description = "reads")
        public String read(String name) throws IOException {
            throw new NoSuchFileException("/srv/app/" + name);
        }

        @Tool(description = "reads, or falls back")
        public String readOrDefault(String name) {
            try {
                return self.read(name);
            } catch (IOException | RuntimeException e) {
                return "default";
            }
        }
    }

    public static final class Sealed {
        @Tool(description = "reads")
        public String read(String name) throws IOException {
            throw new NoSuchFileException("/srv/app/" + name);
        }
    }

    /** A non-final class with a final served method: a class proxy would run it on its own empty instance. */
    public static class Catalog {
        private final Map<String, String> items;

        public Catalog(Map<String, String> items) {
            this.items = items;
        }

        @Tool(description = "looks an item up")
        public final String lookup(String id) {
            return items.getOrDefault(id, "none");
        }
    }

    /** A final method that is not served is as unreachable to the proxy. */
    public static class Priced {
        private final Map<String, Integer> prices = Map.of("a", 3);

        @Tool(description = "prices an item")
        public int price(String id) {
            return prices.getOrDefault(id, 0) * tax();
        }

        public final int tax() {
            return prices.size();
        }
    }

    private final Tools tools = proxy();

    /** What Spring AI's tool specifications return for a method's exception: its text, marked isError. */
    private static McpSchema.CallToolResult springAisText(Exception e) {
        return McpSchema.CallToolResult.builder().isError(true).addTextContent(e.getMessage()).build();
    }

    private static Tools proxy() {
        Tools target = new Tools();
        Tools proxy = (Tools) new ToolMethodProxies(Tools.class.getClassLoader()).postProcessAfterInitialization(target,
                "tools");
        target.self = proxy;
        return proxy;
    }

    @Test
    void insideAGuardedCallTheOriginalReachesTheHandlersCallerPastSpringAisCatch() {
        assertThatThrownBy(() -> CallSlot.around(() -> {
            try {
                return tools.read("q3.csv");
            } catch (IOException | RuntimeException e) { // as Spring AI's callbacks catch
                return springAisText(e);
            }
        })).isInstanceOf(NoSuchFileException.class).hasMessage("/srv/app/q3.csv");
        assertThat(CallSlot.current()).isEmpty();
    }

    @Test
    void outsideAGuardedCallTheMethodThrowsWhatItThrows() {
        assertThatThrownBy(() -> tools.read("q3.csv")).isInstanceOf(NoSuchFileException.class);
    }

    @Test
    void aFailureTheToolRecoversFromIsNoFailureOfTheCall() {
        assertThat(CallSlot.around(() -> tools.readOrDefault("q3.csv"))).isEqualTo("default");
    }

    @Test
    void onlyBeansWithServedMethodsAreProxied() {
        Object plain = new Object();
        assertThat(new ToolMethodProxies(getClass().getClassLoader()).postProcessAfterInitialization(plain, "x"))
                .isSameAs(plain);
    }

    @Test
    void aFinalClassIsLeftAsItIsRatherThanFailingTheApplicationsStart() {
        Sealed sealed = new Sealed();
        assertThat(new ToolMethodProxies(getClass().getClassLoader()).postProcessAfterInitialization(sealed, "s"))
                .isSameAs(sealed);
    }

    @Test
    void aClassWithAFinalServedMethodIsLeftAsItIsAndItsMethodStillWorks() {
        Catalog catalog = new Catalog(Map.of("a", "apple"));
        Object bean = new ToolMethodProxies(getClass().getClassLoader()).postProcessAfterInitialization(catalog, "c");
        assertThat(bean).isSameAs(catalog);
        assertThat(((Catalog) bean).lookup("a")).isEqualTo("apple");
    }

    @Test
    void aClassWithAnyFinalMethodIsLeftAsItIs() {
        Priced priced = new Priced();
        Object bean = new ToolMethodProxies(getClass().getClassLoader()).postProcessAfterInitialization(priced, "p");
        assertThat(bean).isSameAs(priced);
        assertThat(((Priced) bean).price("a")).isEqualTo(3);
    }

    @Test
    void aBeanThatIsAlreadyAProxyGetsTheAdviceInItsOwnProxy() {
        ProxyFactory factory = new ProxyFactory(new Tools());
        factory.setProxyTargetClass(true);
        factory.addAdvice((MethodInterceptor) MethodInvocation::proceed);
        Object transactional = factory.getProxy();
        Object advised = new ToolMethodProxies(getClass().getClassLoader())
                .postProcessAfterInitialization(transactional, "tools");
        assertThat(advised).isSameAs(transactional);
        assertThatThrownBy(() -> CallSlot.around(() -> {
            try {
                return ((Tools) advised).read("q3.csv");
            } catch (IOException | RuntimeException e) {
                return springAisText(e);
            }
        })).isInstanceOf(NoSuchFileException.class);
    }
}
