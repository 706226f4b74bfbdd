package dev.warden.adapter.springai;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.adapter.mcpsdk.WardenGuard;
import dev.warden.core.incident.Incident;
import dev.warden.core.incident.IncidentSink;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** The one switch and what it guards, without a server: the conditions and the bean replacements. */
// The records' constructors (2.0 has no builders for some of them yet).
@SuppressWarnings("deprecation")
class WardenSpringAiAutoConfigurationTest {

    private final List<Incident> incidents = new CopyOnWriteArrayList<>();
    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(WardenSpringAiAutoConfiguration.class))
            .withBean(IncidentSink.class, () -> incidents::add);

    @Test
    void onWithTheJarAndOffBySwitchOrWithoutSpringAisServer() {
        runner.run(context -> assertThat(context).hasSingleBean(WardenGuard.class)
                .hasSingleBean(SpecificationBeans.class).hasSingleBean(ToolMethodProxies.class)
                .hasSingleBean(JsonMapperBeans.class));
        runner.withPropertyValues("warden.spring-ai.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(WardenGuard.class)
                        .doesNotHaveBean(SpecificationBeans.class));
        runner.withClassLoader(new FilteredClassLoader("org.springframework.ai.mcp.server.common.autoconfigure"))
                .run(context -> assertThat(context).doesNotHaveBean(WardenGuard.class));
    }

    @Test
    void anApplicationsOwnGuardIsTheOneUsed() {
        WardenGuard own = WardenGuard.builder().incidents(incidents::add).build();
        runner.withBean("ownGuard", WardenGuard.class, () -> own)
                .run(context -> assertThat(context.getBean(WardenGuard.class)).isSameAs(own));
    }

    @Test
    void aListOfSpecificationsIsGuardedAndOtherListsAreLeftAsTheyAre() {
        McpSchema.Tool tool = McpSchema.Tool.builder().name("t").inputSchema(Map.of("type", "object")).build();
        SyncToolSpecification failing = new SyncToolSpecification(tool, (exchange, request) -> {
            throw new IllegalStateException("jdbc:postgresql://db.internal:5432/orders refused");
        });
        runner.withBean("tools", List.class, () -> List.of(failing))
                .withBean("names", List.class, () -> List.of("a", "b"))
                .run(context -> {
                    SyncToolSpecification guarded = (SyncToolSpecification) context.getBean("tools", List.class).get(0);
                    McpSchema.CallToolResult result = guarded.callHandler()
                            .apply(null, new McpSchema.CallToolRequest("t", Map.of()));
                    assertThat(result.isError()).isTrue();
                    assertThat(result.content().toString()).contains("INTERNAL_ERROR", "ref_")
                            .doesNotContain("db.internal");
                    assertThat(incidents).singleElement();
                    assertThat(context.getBean("names", List.class).toString()).isEqualTo("[a, b]");
                });
    }
}
