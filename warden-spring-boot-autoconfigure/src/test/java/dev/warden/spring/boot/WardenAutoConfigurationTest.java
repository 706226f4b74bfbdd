package dev.warden.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.error.FailureContext;
import dev.warden.core.incident.FileIncidentStore;
import dev.warden.core.incident.Incident;
import dev.warden.core.incident.IncidentSink;
import dev.warden.server.McpServer;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** The starter's conditions and properties, each in a context of its own (no web server, no Boot application). */
class WardenAutoConfigurationTest {

    @TempDir
    Path incidents;

    private ApplicationContextRunner runner() {
        return StarterContexts.withHelloTool(incidents);
    }

    @Test
    void toolBeansMakeOneServerServedOnWardensOwnJettyAtTheBoundPort() {
        runner().run(context -> {
            assertThat(context).hasSingleBean(McpServer.class).hasSingleBean(FileIncidentStore.class)
                    .hasSingleBean(WardenHttpEndpoint.class);
            assertThat(context.getBean(FileIncidentStore.class).directory()).isEqualTo(incidents);
            WardenHttpEndpoint http = context.getBean(WardenHttpEndpoint.class);
            URI url = http.url().orElseThrow();
            int port = context.getEnvironment().getRequiredProperty(WardenHttpServerLifecycle.LOCAL_PORT, Integer.class);
            assertThat(port).isPositive();
            assertThat(url).isEqualTo(URI.create("http://127.0.0.1:" + port + "/mcp"));
            HttpResponse<String> init = HttpClient.newHttpClient().send(HttpRequest.newBuilder(url)
                    .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\","
                            + "\"params\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
                            + "\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(init.statusCode()).isEqualTo(200);
            assertThat(init.body()).contains("\"name\":\"" + WardenServerAutoConfiguration.DEFAULT_NAME + "\"");
        });
    }

    @Test
    void theNameComesFromTheApplicationUnlessWardenSaysOtherwise() {
        runner().withPropertyValues("warden.mcp.http.enabled=false", "spring.application.name=orders")
                .run(context -> assertThat(context.getBean(McpServer.class).info().name()).isEqualTo("orders"));
        runner().withPropertyValues("warden.mcp.http.enabled=false", "spring.application.name=orders",
                        "warden.mcp.name=orders-mcp", "warden.mcp.version=2.1.0")
                .run(context -> {
                    assertThat(context.getBean(McpServer.class).info().name()).isEqualTo("orders-mcp");
                    assertThat(context.getBean(McpServer.class).info().version()).isEqualTo("2.1.0");
                });
    }

    @Test
    void httpIsOffWhenDisabledOrWhenStdioIsOnAndHttpNotAskedFor() {
        runner().withPropertyValues("warden.mcp.http.enabled=false")
                .run(context -> assertThat(context).hasSingleBean(McpServer.class)
                        .doesNotHaveBean(WardenHttpEndpoint.class));
        // The stdio configuration itself is left out here: it would read the test JVM's stdin
        // (SpringBootStdioEndToEndTest runs it in an application of its own).
        runner().withPropertyValues("warden.mcp.stdio.enabled=true")
                .run(context -> assertThat(context).doesNotHaveBean(WardenHttpEndpoint.class));
        runner().withPropertyValues("warden.mcp.stdio.enabled=true", "warden.mcp.http.enabled=true")
                .run(context -> assertThat(context).hasSingleBean(WardenHttpEndpoint.class));
    }

    @Test
    void servingOnTheApplicationsJettyWithoutOneStopsTheApplicationWithAReason() {
        runner().withPropertyValues("warden.mcp.http.server=application")
                .withConfiguration(AutoConfigurations.of(WardenJettyMountAutoConfiguration.class))
                .run(context -> assertThat(context).hasFailed().getFailure()
                        .hasMessageContaining("spring-boot-starter-jetty"));
    }

    @Test
    void anInterfaceOtherThanLoopbackWithoutAnAuthenticatorDoesNotStart() {
        runner().withPropertyValues("warden.mcp.http.host=0.0.0.0", "warden.mcp.http.allowed-hosts=mcp.example.com")
                .run(context -> assertThat(context).hasFailed().getFailure()
                        .hasStackTraceContaining("no authenticator is set"));
    }

    @Test
    void anIncidentSinkBeanTakesTheStoresPlace() {
        List<Incident> recorded = new CopyOnWriteArrayList<>();
        runner().withPropertyValues("warden.mcp.http.enabled=false")
                .withBean("mySink", IncidentSink.class, () -> recorded::add)
                .run(context -> {
                    assertThat(context).doesNotHaveBean(FileIncidentStore.class);
                    context.getBean(McpServer.class).boundary()
                            .capture(new IllegalStateException("boom"), FailureContext.tool("tools/call", "hello"));
                    assertThat(recorded).singleElement().satisfies(i -> assertThat(i.code().name())
                            .isEqualTo("INTERNAL_ERROR"));
                });
    }

    @Test
    void failuresAndHttpCountersAreMeters() {
        runner().run(context -> {
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            context.getBean(MeterBinder.class).bindTo(registry);
            context.getBean(McpServer.class).boundary()
                    .capture(new IllegalStateException("boom"), FailureContext.tool("tools/call", "hello"));
            assertThat(registry.get("warden.failures").tag("code", "INTERNAL_ERROR").functionCounter().count())
                    .isEqualTo(1.0);
            assertThat(registry.get("warden.failures").tag("code", "NOT_FOUND").functionCounter().count()).isZero();
            assertThat(registry.get("warden.http.sessions").gauge().value()).isZero();
            assertThat(registry.get("warden.http.sessions.opened").functionCounter().count()).isZero();
        });
    }

    @Test
    void theHealthComponentIsUpWhileServingAndRecording() {
        runner().run(context -> assertThat(context.getBean("wardenHealthIndicator", HealthIndicator.class)
                .health().getStatus()).isEqualTo(Status.UP));
    }

    @Test
    void metricsAndHealthStayAwayWithoutMicrometerOrActuator() {
        runner().withClassLoader(new FilteredClassLoader(MeterBinder.class, HealthIndicator.class))
                .run(context -> assertThat(context).hasSingleBean(McpServer.class)
                        .doesNotHaveBean(MeterBinder.class).doesNotHaveBean("wardenHealthIndicator"));
    }

    @Test
    void statsFieldsBecomeDottedMeterNames() {
        assertThat(WardenMeterBinder.dotted("sessionsOpened")).isEqualTo("sessions.opened");
        assertThat(WardenMeterBinder.dotted("notificationsDropped")).isEqualTo("notifications.dropped");
    }
}
