package dev.warden.testkit;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real Redis (Debian's {@code redis-server}) for a test: on a free loopback port, with its own
 * directory, nothing persisted; {@link #stop()} and {@link #start()} again on the same port to play
 * an outage. {@link #command} speaks RESP for what a test asks Redis itself (INFO, DBSIZE).
 */
public final class LocalRedis implements AutoCloseable {

    private static final Path SERVER = Path.of("/usr/bin/redis-server");
    private static final Duration START_WITHIN = Duration.ofSeconds(20);

    private final Path dir;
    private final int port;
    private Process process;

    private LocalRedis(Path dir, int port) {
        this.dir = dir;
        this.port = port;
    }

    /** Starts one under {@code parent} (a directory under target/). */
    public static LocalRedis start(Path parent) throws IOException {
        DebianPackage.require("redis-server", () -> Files.isExecutable(SERVER));
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        Path dir = Files.createDirectories(parent).resolve("redis-" + port);
        Files.createDirectories(dir);
        LocalRedis redis = new LocalRedis(dir, port);
        redis.start();
        return redis;
    }

    /** Starts (again) on this fixture's port. */
    public synchronized void start() throws IOException {
        process = new ProcessBuilder(SERVER.toString(), "--port", Integer.toString(port), "--bind", "127.0.0.1",
                "--dir", dir.toString(), "--save", "", "--appendonly", "no", "--protected-mode", "yes",
                "--daemonize", "no")
                .redirectErrorStream(true).redirectOutput(dir.resolve("redis.log").toFile()).start();
        long deadline = System.nanoTime() + START_WITHIN.toNanos();
        while (true) {
            try {
                if (command("PING").equals("PONG")) {
                    return;
                }
            } catch (IOException e) {
                if (System.nanoTime() > deadline || !process.isAlive()) {
                    throw new IOException("redis-server did not start on port " + port + "; see " + dir.resolve("redis.log"), e);
                }
                java.util.concurrent.locks.LockSupport.parkNanos(5_000_000); // the next look, not a wait for time
            }
        }
    }

    /** Stops the server (the port stays this fixture's, for {@link #start()}). */
    public synchronized void stop() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroy();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        }
    }

    public int port() {
        return port;
    }

    public String url() {
        return "redis://127.0.0.1:" + port;
    }

    /** One command; the reply as text (a bulk reply's content, a status, an integer, an error as "-ERR …"). */
    public String command(String... args) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(5000);
            OutputStream out = socket.getOutputStream();
            StringBuilder request = new StringBuilder("*" + args.length + "\r\n");
            for (String a : args) {
                byte[] bytes = a.getBytes(StandardCharsets.UTF_8);
                request.append('$').append(bytes.length).append("\r\n").append(a).append("\r\n");
            }
            out.write(request.toString().getBytes(StandardCharsets.UTF_8));
            out.flush();
            InputStream in = new BufferedInputStream(socket.getInputStream());
            String first = line(in);
            return switch (first.charAt(0)) {
                case '+', ':' -> first.substring(1);
                case '-' -> first;
                case '$' -> {
                    int length = Integer.parseInt(first.substring(1));
                    if (length < 0) {
                        yield "";
                    }
                    byte[] body = in.readNBytes(length + 2);
                    yield new String(body, 0, length, StandardCharsets.UTF_8);
                }
                default -> first;
            };
        }
    }

    /** The number of times each command ran since the last {@code CONFIG RESETSTAT}, as INFO commandstats lists them. */
    public List<String> commandStats() throws IOException {
        return command("INFO", "commandstats").lines().filter(l -> l.startsWith("cmdstat_")).toList();
    }

    private static String line(InputStream in) throws IOException {
        StringBuilder b = new StringBuilder();
        int c;
        while ((c = in.read()) != -1) {
            if (c == '\r') {
                in.read();
                return b.toString();
            }
            b.append((char) c);
        }
        throw new IOException("Redis closed the connection");
    }

    @Override
    public void close() throws InterruptedException {
        stop();
    }
}
