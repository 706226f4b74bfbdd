package dev.warden.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP relay on a free loopback port in front of a real server (PostgreSQL, Redis): a test cuts
 * the server off with {@link #cut} (open connections reset, new ones refused), as a network
 * failure or a stopped server would, without stopping the server other tests share.
 */
public final class TcpRelay implements AutoCloseable {

    private final InetSocketAddress target;
    private final ServerSocket server;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private volatile boolean cut;
    private volatile boolean stalled;

    private TcpRelay(InetSocketAddress target) throws IOException {
        this.target = target;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofVirtual().name("tcp-relay-accept").start(this::accept);
    }

    /** A relay to {@code host:port}, listening on a free loopback port. */
    public static TcpRelay to(String host, int port) throws IOException {
        return new TcpRelay(new InetSocketAddress(host, port));
    }

    public int port() {
        return server.getLocalPort();
    }

    /** Resets every open connection and refuses new ones until {@link #restore}. */
    public void cut() {
        cut = true;
        for (Socket s : open) {
            close(s);
        }
    }

    /**
     * Accepts new connections and leaves them silent (a server that stopped answering, a network
     * path that drops packets) until {@link #restore}; those already relayed go on.
     */
    public void stall() {
        stalled = true;
    }

    /** Relays new connections again. */
    public void restore() {
        cut = false;
        stalled = false;
    }

    private void accept() {
        while (!server.isClosed()) {
            Socket client;
            try {
                client = server.accept();
            } catch (IOException e) {
                return;
            }
            if (cut) {
                close(client);
                continue;
            }
            if (stalled) {
                open.add(client); // held, never answered, reset by cut() or close()
                continue;
            }
            try {
                Socket upstream = new Socket(target.getAddress(), target.getPort());
                open.add(client);
                open.add(upstream);
                Thread.ofVirtual().start(() -> pump(client, upstream));
                Thread.ofVirtual().start(() -> pump(upstream, client));
            } catch (IOException e) {
                close(client);
            }
        }
    }

    private void pump(Socket from, Socket to) {
        byte[] buffer = new byte[16 * 1024];
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (IOException e) {
            // one side went: the other goes too
        } finally {
            close(from);
            close(to);
        }
    }

    private void close(Socket s) {
        open.remove(s);
        try {
            s.setSoLinger(true, 0); // a reset, as a dropped network path or a killed server gives
            s.close();
        } catch (IOException e) {
            // already gone
        }
    }

    @Override
    public void close() {
        cut();
        try {
            server.close();
        } catch (IOException e) {
            // nothing more to release
        }
    }
}
