package dev.warden.adapter.springai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
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

    private final Tools tools = proxy();

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
                return "Spring AI's text: " + e.getMessage();
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
                return "Spring AI's text";
            }
        })).isInstanceOf(NoSuchFileException.class);
    }
}
