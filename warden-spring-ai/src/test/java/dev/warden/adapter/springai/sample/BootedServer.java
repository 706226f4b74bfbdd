package dev.warden.adapter.springai.sample;

import dev.warden.adapter.mcpsdk.sample.Clients;
import dev.warden.adapter.mcpsdk.sample.Observed;
import dev.warden.core.incident.IncidentStore;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.URI;
import java.util.Map;
import java.util.stream.Stream;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A Spring AI MCP server booted as an application is, on a free local port, its incidents in the
 * test's store, and called at /mcp by the official Java SDK client.
 */
record BootedServer(ConfigurableApplicationContext app, URI base) implements AutoCloseable {

    /** Boots {@code application} with the given properties besides the port and the server's name. */
    static BootedServer boot(Class<?> application, IncidentStore incidents, String... properties) {
        String[] all = Stream.concat(Stream.of("server.port=0", "server.address=127.0.0.1",
                // immediate: a client's open event stream would hold a graceful shutdown for 30 s
                "server.shutdown=immediate", "spring.main.banner-mode=off", "spring.ai.mcp.server.name=orders"),
                Stream.of(properties)).toArray(String[]::new);
        ConfigurableApplicationContext app = new SpringApplicationBuilder(application).properties(all)
                .initializers(context -> context.getBeanFactory().registerSingleton("incidents", incidents)).run();
        return new BootedServer(app,
                URI.create("http://127.0.0.1:" + app.getEnvironment().getProperty("local.server.port")));
    }

    // The request's constructor (2.0 has no builder for it yet).
    @SuppressWarnings("deprecation")
    Observed call(String tool, Map<String, Object> arguments) {
        return Clients.sdk(base, "/mcp", c -> c.callTool(new McpSchema.CallToolRequest(tool, arguments)));
    }

    @Override
    public void close() {
        app.close();
    }
}
