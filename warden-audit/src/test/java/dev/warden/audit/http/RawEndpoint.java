package dev.warden.audit.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A Streamable HTTP endpoint on a bare socket, so a test decides what happens to each connection,
 * which {@code com.sun.net.httpserver} does not let it: every request is answered with an
 * initialize result (any Origin or Host served, a random session id), and the connection kept
 * alive, unless the endpoint {@link Behaviour#DROPS_ONE_KEPT_ALIVE drops one kept-alive
 * connection} (the first POST that comes on a connection already used is read and the connection
 * closed, unanswered: a server closing an idle connection just as the client's next request goes
 * out on it; once, as in the race it stands for, so that what a client sends next is answered
 * whichever pooled connection it goes on) or {@link Behaviour#NEVER_ANSWERS never answers} (each
 * request is read and left waiting).
 */
final class RawEndpoint implements AutoCloseable {

    enum Behaviour { KEEPS_ALIVE, DROPS_ONE_KEPT_ALIVE, NEVER_ANSWERS }

    private static final byte[] INITIALIZED = ("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"protocolVersion\":"
            + "\"2025-06-18\",\"capabilities\":{},\"serverInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}")
            .getBytes(StandardCharsets.UTF_8);

    private final ServerSocket socket;
    private final Behaviour behaviour;
    private final AtomicInteger dropped = new AtomicInteger();
    /** Connections accepted, closed with the endpoint: a client's pool keeps them open otherwise. */
    private final Set<Socket> connections = ConcurrentHashMap.newKeySet();

    RawEndpoint(Behaviour behaviour) throws IOException {
        this.behaviour = behaviour;
        this.socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofVirtual().start(this::accept);
    }

    URI endpoint() {
        return URI.create("http://127.0.0.1:" + socket.getLocalPort() + "/mcp");
    }

    /** Requests read on a kept-alive connection and left unanswered as it was closed: 0 or 1. */
    int dropped() {
        return dropped.get();
    }

    private void accept() {
        while (!socket.isClosed()) {
            try {
                Socket connection = socket.accept();
                connections.add(connection);
                Thread.ofVirtual().start(() -> serve(connection));
            } catch (IOException closed) {
                return;
            }
        }
    }

    private void serve(Socket connection) {
        try (connection; InputStream in = connection.getInputStream(); OutputStream out = connection.getOutputStream()) {
            for (int served = 0; ; served++) {
                String method = readRequest(in);
                if (method.isEmpty()) {
                    return; // the client closed it
                }
                if (behaviour == Behaviour.NEVER_ANSWERS) {
                    in.read(); // until the client gives up and closes
                    return;
                }
                // A POST: a DELETE's failure the auditor lets go, which would prove nothing.
                if (behaviour == Behaviour.DROPS_ONE_KEPT_ALIVE && served > 0 && "POST".equals(method)
                        && dropped.compareAndSet(0, 1)) {
                    return;
                }
                out.write(answer(method));
                out.flush();
            }
        } catch (IOException gone) {
            // the client went away
        }
    }

    private static byte[] answer(String method) {
        if (!"POST".equals(method)) {
            return "HTTP/1.1 204 No Content\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        }
        String head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nMcp-Session-Id: " + UUID.randomUUID()
                + "\r\nContent-Length: " + INITIALIZED.length + "\r\n\r\n";
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        bytes.writeBytes(head.getBytes(StandardCharsets.US_ASCII));
        bytes.writeBytes(INITIALIZED);
        return bytes.toByteArray();
    }

    /** The request's method, its head and body read; empty at the end of the stream. */
    private static String readRequest(InputStream in) throws IOException {
        String requestLine = line(in);
        if (requestLine.isEmpty()) {
            return "";
        }
        int length = 0;
        for (String header = line(in); !header.isEmpty(); header = line(in)) {
            int colon = header.indexOf(':');
            if (colon > 0 && header.substring(0, colon).trim().toLowerCase(Locale.ROOT).equals("content-length")) {
                length = Integer.parseInt(header.substring(colon + 1).trim());
            }
        }
        in.readNBytes(length);
        return requestLine.substring(0, Math.max(0, requestLine.indexOf(' ')));
    }

    /** One line without its CRLF; empty at a blank line or the end of the stream. */
    private static String line(InputStream in) throws IOException {
        StringBuilder b = new StringBuilder();
        for (int c = in.read(); c != -1 && c != '\n'; c = in.read()) {
            if (c != '\r') {
                b.append((char) c);
            }
        }
        return b.toString();
    }

    @Override
    public void close() throws IOException {
        socket.close();
        for (Socket connection : connections) {
            connection.close();
        }
    }
}
