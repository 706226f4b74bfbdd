package dev.warden.spring.boot;

import dev.warden.server.McpServer;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.SmartLifecycle;

/**
 * Serves the {@link McpServer} on this process's stdin and stdout, on a thread of its own, once the
 * context has started; when stdin ends (the client went away) the context is closed and the
 * application exits, as a stdio server must.
 */
final class WardenStdioServer implements SmartLifecycle {

    private static final Log LOG = LogFactory.getLog(WardenStdioServer.class);

    private final McpServer server;
    private final ConfigurableApplicationContext context;
    private volatile boolean running;

    WardenStdioServer(McpServer server, ConfigurableApplicationContext context) {
        this.server = server;
        this.context = context;
    }

    @Override
    public synchronized void start() {
        if (running) {
            return;
        }
        running = true;
        Thread serving = new Thread(this::serve, "warden-stdio");
        serving.setDaemon(false);
        serving.start();
    }

    private void serve() {
        try {
            server.serveStdio();
            LOG.info("Warden MCP: stdin ended; stopping");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            running = false;
            context.close();
        }
    }

    @Override
    public void stop() {
        // stdin's end stops the serving thread; the JVM's exit ends it otherwise.
        running = false;
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}
