package dev.warden.spring.boot;

import dev.warden.server.McpServer;
import java.util.concurrent.CountDownLatch;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.SmartLifecycle;

/**
 * Serves the {@link McpServer} on this process's stdin and stdout, on a thread of its own, once the
 * context has started; when stdin ends (the client went away) the context is closed and the
 * application exits, as a stdio server must.
 *
 * <p>The reader is a daemon, since it stays blocked on stdin for as long as the client keeps it open;
 * what keeps the JVM alive is a separate non-daemon thread waiting on a latch that {@link #stop()}
 * releases (Boot's keep-alive pattern). So a context closed for any reason (a runner that fails after
 * the start, {@code SpringApplication.exit}) lets the process exit, stdin still open or not.
 */
final class WardenStdioServer implements SmartLifecycle {

    private static final Log LOG = LogFactory.getLog(WardenStdioServer.class);

    private final McpServer server;
    private final ConfigurableApplicationContext context;
    private CountDownLatch stopped = new CountDownLatch(0);

    WardenStdioServer(McpServer server, ConfigurableApplicationContext context) {
        this.server = server;
        this.context = context;
    }

    @Override
    public synchronized void start() {
        if (isRunning()) {
            return;
        }
        CountDownLatch latch = new CountDownLatch(1);
        stopped = latch;
        Thread keepAlive = new Thread(() -> awaitQuietly(latch), "warden-stdio-keep-alive");
        keepAlive.setDaemon(false);
        keepAlive.start();
        Thread serving = new Thread(this::serve, "warden-stdio");
        serving.setDaemon(true);
        serving.start();
    }

    private void serve() {
        try {
            server.serveStdio();
            LOG.info("Warden MCP: stdin ended; stopping");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            context.close();
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public synchronized void stop() {
        // Releases the keep-alive thread; the daemon reader ends with the JVM (or with stdin).
        stopped.countDown();
    }

    @Override
    public synchronized boolean isRunning() {
        return stopped.getCount() > 0;
    }
}
