package dev.warden.audit.http;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A deliberately careless Streamable HTTP endpoint: serves any Origin and Host, numbers its
 * sessions, names its product and version, and answers a request without credentials with a bare
 * {@code 401}. Every mistake the HTTP checks look for, and nothing else.
 */
final class SloppyEndpoint implements AutoCloseable {

    static final String SERVER_BANNER = "Apache/2.4.41 (Ubuntu)";
    static final String POWERED_BY = "Express 4.17.1";
    static final String TOKEN = "Bearer let-me-in";

    private final HttpServer server;
    private final AtomicInteger sessions = new AtomicInteger(1000);

    SloppyEndpoint() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/mcp", exchange -> {
            exchange.getRequestBody().readAllBytes();
            exchange.getResponseHeaders().add("Server", SERVER_BANNER);
            exchange.getResponseHeaders().add("X-Powered-By", POWERED_BY);
            if (!TOKEN.equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
                exchange.getResponseHeaders().add("WWW-Authenticate", "Bearer realm=\"mcp\"");
                exchange.sendResponseHeaders(401, -1);
                exchange.close();
                return;
            }
            if ("POST".equals(exchange.getRequestMethod())) {
                exchange.getResponseHeaders().add("Mcp-Session-Id", "session-" + sessions.incrementAndGet());
            }
            byte[] body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"serverInfo\":{\"name\":\"sloppy\",\"version\":\"1\"}}}"
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
    }

    URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/mcp");
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
