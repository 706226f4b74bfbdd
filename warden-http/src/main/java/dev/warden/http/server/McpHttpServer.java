package dev.warden.http.server;

import dev.warden.core.transport.Transport;
import java.net.URI;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.VirtualThreadPool;

/**
 * Serves MCP over Streamable HTTP at one endpoint ({@code http://127.0.0.1:PORT/mcp} by default).
 * Each client session gets its own {@link Transport}, handed to {@code onSession} (typically
 * {@code mcpServer::connect}). Safe by default: bound to the loopback interface, Host and Origin
 * checked against an allowlist (DNS rebinding), bodies capped, session ids from a secure random
 * source, and every refusal a status code with a JSON-RPC error body that repeats no input.
 *
 * <pre>{@code
 * McpHttpServer http = McpHttpServer.builder().port(8080).onSession(server::connect).build();
 * http.start();
 * }</pre>
 */
public final class McpHttpServer implements AutoCloseable {

    private final Server jetty;
    private final ServerConnector connector;
    private final McpHttpHandler endpoint;
    private final String path;
    private final String host;

    McpHttpServer(McpHttpServerBuilder b) {
        this.path = b.path;
        this.host = b.host;
        this.endpoint = new McpHttpHandler(b);
        VirtualThreadPool pool = new VirtualThreadPool();
        pool.setName("warden-http");
        this.jetty = new Server(pool);
        HttpConfiguration config = new HttpConfiguration();
        config.setSendServerVersion(false); // no product or version in headers: nothing to fingerprint
        config.setSendXPoweredBy(false);
        config.setRequestHeaderSize(b.maxHeaderBytes); // larger header blocks: 431 before they are buffered
        this.connector = new ServerConnector(jetty, new HttpConnectionFactory(config));
        connector.setHost(b.host);
        connector.setPort(b.port);
        endpoint.attach(connector);
        jetty.addConnector(connector);
        jetty.setHandler(endpoint.handler());
        jetty.setStopTimeout(2000);
    }

    public static McpHttpServerBuilder builder() {
        return new McpHttpServerBuilder();
    }

    /** Starts listening; returns once the port is bound. */
    public McpHttpServer start() throws Exception {
        jetty.start();
        endpoint.start(endpoint());
        return this;
    }

    /** The bound port (useful with port 0). */
    public int port() {
        return connector.getLocalPort();
    }

    /** The MCP endpoint's URL. */
    public URI endpoint() {
        String h = host.contains(":") ? "[" + host + "]" : host;
        return URI.create("http://" + h + ":" + port() + path);
    }

    /**
     * The canonical URI of this resource, which access tokens must be issued for (RFC 8707): the
     * authenticator's, or the endpoint's URL; empty when the server authenticates nobody.
     */
    public java.util.Optional<URI> resource() {
        return endpoint.resource();
    }

    /** The sessions open (those idle past the idle timeout are closed first). */
    public int sessionCount() {
        return endpoint.sessionCount();
    }

    /** What the server has refused or taken away from clients so far, for metrics. */
    public Stats stats() {
        return endpoint.stats();
    }

    /**
     * Counters since the start.
     *
     * @param sessionsEvicted idle sessions closed to make room at a cap
     * @param sessionsExpired sessions closed after the idle timeout
     * @param sessionsRefused initializes refused: a cap reached and no session idle
     * @param streamsCut      event streams cut because their client stopped reading
     * @param notificationsDropped log and progress notifications dropped for a client that read its
     *                        stream slower than they came (its answers and requests still sent)
     * @param requestsRefused POSTs refused in a session (a duplicate id, too many requests in flight, a batch)
     * @param sessionsRestored sessions another replica opened, restored here from their sealed ids
     * @param sessionsNotPortable sessions given a plain id although portable: their initialize was too large to seal
     */
    public record Stats(long sessionsOpened, long sessionsEvicted, long sessionsExpired, long sessionsRefused,
                        long streamsCut, long notificationsDropped, long requestsRefused, long sessionsRestored,
                        long sessionsNotPortable) {
    }

    public void join() throws InterruptedException {
        jetty.join();
    }

    @Override
    public void close() {
        endpoint.closeSessions();
        try {
            jetty.stop();
        } catch (Exception e) {
            // stopping is best effort; the port is released with the process anyway
        }
        endpoint.close();
    }

    /** Sessions open at once, unless {@link McpHttpServerBuilder#maxSessions} says otherwise. */
    public static final int DEFAULT_MAX_SESSIONS = 10_000;
    /** Sessions open at once from one remote address, unless {@link McpHttpServerBuilder#maxSessions} says otherwise. */
    public static final int DEFAULT_MAX_SESSIONS_PER_ADDRESS = 1_000;
}
