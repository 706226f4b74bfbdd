package dev.warden.e2e.attack;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;

/** HTTP/1.1 by hand on one socket, for peers no HTTP client library would be: slow writers, non-readers. */
final class RawHttp implements AutoCloseable {

    private final Socket socket;
    private final URI uri;

    RawHttp(URI uri, int receiveBuffer) throws IOException {
        this.uri = uri;
        socket = new Socket();
        if (receiveBuffer > 0) {
            socket.setReceiveBufferSize(receiveBuffer);
        }
        socket.connect(new InetSocketAddress(uri.getHost(), uri.getPort()), 10_000);
        socket.setSoTimeout(10);
    }

    String requestHead(String extraHeaders, long contentLength) {
        return "POST " + uri.getPath() + " HTTP/1.1\r\nHost: " + uri.getHost() + ":" + uri.getPort()
                + "\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n" + extraHeaders
                + "Content-Length: " + contentLength + "\r\n\r\n";
    }

    void write(String text) throws IOException {
        socket.getOutputStream().write(text.getBytes(StandardCharsets.UTF_8));
        socket.getOutputStream().flush();
    }

    /** Whether the server has closed the connection (or answered it, which ends a slow request too). */
    boolean cut() {
        try {
            InputStream in = socket.getInputStream();
            return in.read() != -2; // any byte or the end: the server gave up on us
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true;
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
