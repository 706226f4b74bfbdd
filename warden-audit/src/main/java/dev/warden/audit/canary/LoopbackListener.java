package dev.warden.audit.canary;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.HashSet;
import java.util.Set;

/**
 * The audit's own HTTP listener on loopback (127.0.0.1, a port the OS picks), the target of the
 * URL canaries: a request for {@code /TOKEN} proves the server fetched the URL the probe gave.
 * Every request gets the same harmless body; the paths seen are kept (bounded) and nothing else.
 * Started on the first URL asked for, so an audit without URL-shaped parameters opens no port.
 */
public final class LoopbackListener implements AutoCloseable {

    static final byte[] BODY = "warden audit canary: nothing to see\n".getBytes(StandardCharsets.UTF_8);
    private static final int MAX_SEEN = 1_000;

    private final Set<String> seen = Collections.synchronizedSet(new HashSet<>());
    private HttpServer server;

    /** The URL whose request proves {@code token} was fetched. */
    public synchronized String url(String token) {
        if (server == null) {
            try {
                server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
            } catch (IOException e) {
                throw new UncheckedIOException("the loopback canary listener could not bind", e);
            }
            server.createContext("/", exchange -> {
                try (exchange) {
                    String path = exchange.getRequestURI().getRawPath();
                    if (path != null && path.length() <= 256 && seen.size() < MAX_SEEN) {
                        seen.add(path.substring(path.lastIndexOf('/') + 1));
                    }
                    exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
                    exchange.sendResponseHeaders(200, BODY.length);
                    try (OutputStream out = exchange.getResponseBody()) {
                        out.write(BODY);
                    }
                }
            });
            server.start();
        }
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/" + token;
    }

    /** Whether a request for {@code token}'s URL arrived. */
    boolean seen(String token) {
        return seen.contains(token);
    }

    @Override
    public synchronized void close() {
        if (server != null) {
            server.stop(0);
            server = null;
        }
    }
}
