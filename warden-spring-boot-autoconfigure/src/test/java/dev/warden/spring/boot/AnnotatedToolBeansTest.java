package dev.warden.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.server.McpServer;
import dev.warden.server.Tool;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** Beans with {@link Tool} methods become tools, beside the ToolSpec beans; other beans are left alone. */
class AnnotatedToolBeansTest {

    @TempDir
    Path incidents;

    public static class Greeter {
        @Tool(description = "Greets someone.", readOnly = true, destructive = false)
        public String greet(String name) {
            return "Hello, " + name;
        }
    }

    public static class NoTools {
        public String greet(String name) {
            return name;
        }
    }

    @Test
    void aBeanWithToolMethodsServesThem() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(WardenServerAutoConfiguration.class))
                .withPropertyValues("warden.mcp.incidents.dir=" + incidents)
                .withBean(Greeter.class).withBean(NoTools.class)
                .run(context -> {
                    assertThat(context).hasSingleBean(McpServer.class);
                    assertThat(AnnotatedToolBeans.hasTools(Greeter.class)).isTrue();
                    assertThat(AnnotatedToolBeans.hasTools(NoTools.class)).isFalse();
                    assertThat(AnnotatedToolBeans.in(context.getBeanFactory()))
                            .extracting(spec -> spec.name()).containsExactly("greet");
                });
    }
}
