package dev.warden.spring.boot;

import dev.warden.server.ToolResult;
import dev.warden.server.ToolSpec;
import java.nio.file.Path;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * The context the starter's tests start from: its configurations but stdio's (which would read the
 * test JVM's stdin), one tool, a free port.
 */
final class StarterContexts {

    private StarterContexts() {
    }

    /** Those configurations, one {@code hello} tool, incidents in {@code incidents}, port 0. */
    static ApplicationContextRunner withHelloTool(Path incidents) {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(WardenServerAutoConfiguration.class,
                        WardenHttpAutoConfiguration.class, WardenMetricsAutoConfiguration.class,
                        WardenHealthAutoConfiguration.class))
                .withPropertyValues("warden.mcp.incidents.dir=" + incidents, "warden.mcp.http.port=0")
                .withBean("hello", ToolSpec.class, () -> ToolSpec.builder("hello")
                        .handler(call -> ToolResult.text("hi")).build());
    }
}
