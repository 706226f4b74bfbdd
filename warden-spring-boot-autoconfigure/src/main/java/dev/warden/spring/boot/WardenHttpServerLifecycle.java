package dev.warden.spring.boot;

import dev.warden.core.identity.Authenticator;
import dev.warden.http.server.McpHttpServer;
import dev.warden.server.McpServer;
import java.net.URI;
import java.util.Map;
import java.util.Optional;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Warden's own Jetty ({@link McpHttpServer}), started with the context and stopped with it. The bound
 * URL is logged ("serving at ...") and published as {@value #LOCAL_URL} and {@value #LOCAL_PORT}, as
 * Boot publishes {@code local.server.port}.
 */
final class WardenHttpServerLifecycle implements SmartLifecycle, WardenHttpEndpoint {

    static final String LOCAL_URL = "local.warden.mcp.url";
    static final String LOCAL_PORT = "local.warden.mcp.port";
    private static final Log LOG = LogFactory.getLog(WardenHttpServerLifecycle.class);

    private final McpServer server;
    private final WardenProperties.Http properties;
    private final Optional<Authenticator> authenticator;
    private final ConfigurableEnvironment environment;
    private volatile Optional<McpHttpServer> running = Optional.empty();

    WardenHttpServerLifecycle(McpServer server, WardenProperties.Http properties,
                              Optional<Authenticator> authenticator, ConfigurableEnvironment environment) {
        this.server = server;
        this.properties = properties;
        this.authenticator = authenticator;
        this.environment = environment;
    }

    @Override
    public synchronized void start() {
        if (running.isPresent()) {
            return;
        }
        McpHttpServer http = EndpointBuilder.of(server, properties, properties.host(), authenticator)
                .port(properties.port()).build();
        try {
            http.start();
        } catch (Exception e) {
            http.close();
            throw new IllegalStateException("Warden MCP: cannot serve on " + properties.host() + ":"
                    + properties.port(), e);
        }
        running = Optional.of(http);
        keepAlive(http);
        URI url = http.endpoint();
        environment.getPropertySources().addFirst(new MapPropertySource("wardenMcpHttp",
                Map.of(LOCAL_URL, url.toString(), LOCAL_PORT, http.port())));
        LOG.info("Warden MCP: serving " + server.info().name() + " at " + url);
    }

    /**
     * Jetty runs on virtual threads, which do not keep the JVM alive; an application with no web
     * server of its own would exit once started. One platform thread waits for Jetty to stop.
     */
    private static void keepAlive(McpHttpServer http) {
        Thread waiter = new Thread(() -> {
            try {
                http.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "warden-http-keep-alive");
        waiter.setDaemon(false);
        waiter.start();
    }

    @Override
    public synchronized void stop() {
        running.ifPresent(McpHttpServer::close);
        running = Optional.empty();
    }

    @Override
    public boolean isRunning() {
        return running.isPresent();
    }

    @Override
    public Optional<URI> url() {
        return running.map(McpHttpServer::endpoint);
    }

    @Override
    public int sessionCount() {
        return running.map(McpHttpServer::sessionCount).orElse(0);
    }

    @Override
    public Optional<McpHttpServer.Stats> stats() {
        return running.map(McpHttpServer::stats);
    }
}
