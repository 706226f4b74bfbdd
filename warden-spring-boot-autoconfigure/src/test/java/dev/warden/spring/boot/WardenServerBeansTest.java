package dev.warden.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.error.FailureContext;
import dev.warden.core.incident.Incident;
import dev.warden.server.McpServer;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** Which server the starter builds and serves when the application has its own say (after r8). */
class WardenServerBeansTest {

    @TempDir
    Path incidents;

    private ApplicationContextRunner runner() {
        return StarterContexts.withHelloTool(incidents);
    }

    private static void fail(McpServer server) {
        server.boundary().capture(new IllegalStateException("boom"), FailureContext.tool("tools/call", "hello"));
    }

    /** The guide: "A WardenServerCustomizer bean changes anything else the server builder offers". */
    @Test
    void aCustomizersIncidentSinkIsTheOneUsed() {
        List<Incident> mine = new CopyOnWriteArrayList<>();
        runner().withPropertyValues("warden.mcp.http.enabled=false")
                .withBean("myCustomizer", WardenServerCustomizer.class, () -> builder -> builder.incidents(mine::add))
                .run(context -> {
                    fail(context.getBean(McpServer.class));
                    assertThat(mine).hasSize(1);
                });
    }

    /** Two servers (say one per tenant) and none primary: the starter serves neither, and starts. */
    @Test
    void twoMcpServerBeansMakeTheStarterBackOff() {
        runner().withBean("a", McpServer.class, () -> McpServer.builder("a", "1").build())
                .withBean("b", McpServer.class, () -> McpServer.builder("b", "1").build())
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(WardenHttpEndpoint.class)
                        .doesNotHaveBean(MeterBinder.class));
    }

    @Test
    void twoMcpServerBeansWithAPrimaryOneServeThePrimary() {
        runner().withBean("a", McpServer.class, () -> McpServer.builder("a", "1").build(), bean -> bean.setPrimary(true))
                .withBean("b", McpServer.class, () -> McpServer.builder("b", "1").build())
                .run(context -> assertThat(context).hasNotFailed().hasSingleBean(WardenHttpEndpoint.class)
                        .hasSingleBean(MeterBinder.class));
    }

    /**
     * The guide: an application's own McpServer bean is served as built, so its failures go where its
     * builder said and warden.failures does not count them (no hook on a built server; r8 asked).
     */
    @Test
    void anOwnServerIsServedAsBuiltAndItsFailuresAreNotCounted() {
        List<Incident> its = new CopyOnWriteArrayList<>();
        runner().withBean("own", McpServer.class, () -> McpServer.builder("own", "1").incidents(its::add).build())
                .run(context -> {
                    assertThat(context).hasSingleBean(WardenHttpEndpoint.class);
                    SimpleMeterRegistry registry = new SimpleMeterRegistry();
                    context.getBean(MeterBinder.class).bindTo(registry);
                    fail(context.getBean(McpServer.class));
                    assertThat(its).hasSize(1);
                    assertThat(registry.get("warden.failures").tag("code", "INTERNAL_ERROR").functionCounter()
                            .count()).isZero();
                });
    }
}
