package dev.warden.testkit;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real PostgreSQL (Debian's package) for the tests of one JVM: {@code initdb} into a temporary
 * directory, started on a free loopback port the first time a test asks for it, stopped when the JVM
 * exits. It holds the database {@code wardentest}, owned by the role {@code warden}, with the
 * {@code customers} table that server-postgres behind {@code warden wrap} queries. PostgreSQL refuses
 * to run as root, so as root it runs as Debian's {@code postgres} user ({@code runuser}).
 */
public final class LocalPostgres {

    public static final String USER = "warden";
    public static final String PASSWORD = "warden-test";
    public static final String DATABASE = "wardentest";

    private static final Path VERSIONS = Path.of("/usr/lib/postgresql");
    private static LocalPostgres shared;

    private final Path bin;
    private final Path dir;
    private final int port;

    private LocalPostgres(Path bin, Path dir, int port) {
        this.bin = bin;
        this.dir = dir;
        this.port = port;
    }

    /** The one server of this JVM, started on first use. */
    public static synchronized LocalPostgres shared() {
        if (shared == null) {
            try {
                shared = start();
            } catch (IOException e) {
                throw new IllegalStateException("could not start a local PostgreSQL: " + e.getMessage(), e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while starting a local PostgreSQL", e);
            }
        }
        return shared;
    }

    /** {@code postgresql://warden:warden-test@127.0.0.1:<port>/wardentest} */
    public String url() {
        return "postgresql://" + USER + ":" + PASSWORD + "@127.0.0.1:" + port + "/" + DATABASE;
    }

    /** The same as a JDBC URL, for tests that connect with the driver themselves. */
    public String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + DATABASE;
    }

    public String host() {
        return "127.0.0.1";
    }

    public int port() {
        return port;
    }

    private static LocalPostgres start() throws IOException, InterruptedException {
        Path bin = installed();
        boolean root = "root".equals(System.getProperty("user.name"));
        Path dir = Files.createTempDirectory("warden-postgres-");
        if (root) {
            run(List.of("chown", "postgres:postgres", dir.toString()), false, dir);
        }
        Path password = dir.resolve("password");
        Files.writeString(password, PASSWORD);
        if (root) {
            run(List.of("chown", "postgres:postgres", password.toString()), false, dir);
        }
        Path data = dir.resolve("data");
        run(List.of(bin.resolve("initdb").toString(), "-D", data.toString(), "-U", USER, "--pwfile=" + password,
                "--auth-host=scram-sha-256", "--auth-local=trust", "-E", "UTF8", "--locale=C", "--no-sync"),
                root, dir);
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        // No fsync: a test database is thrown away, and fsync is most of a small write's cost.
        run(List.of(bin.resolve("pg_ctl").toString(), "-D", data.toString(), "-l", dir.resolve("postgres.log").toString(),
                "-w", "-t", "60", "-o", "-p " + port + " -k " + dir + " -c listen_addresses=127.0.0.1 -c fsync=off"
                        + " -c synchronous_commit=off -c full_page_writes=off -c max_connections=200",
                "start"), root, dir);
        LocalPostgres postgres = new LocalPostgres(bin, dir, port);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> postgres.stop(root, data), "local-postgres-stop"));
        postgres.psql(root, "postgres", "CREATE DATABASE " + DATABASE + " OWNER " + USER);
        postgres.psql(root, DATABASE, "CREATE TABLE customers (id int PRIMARY KEY, email text UNIQUE NOT NULL);"
                + " INSERT INTO customers VALUES (1, 'ada@example.com')");
        return postgres;
    }

    private void psql(boolean root, String database, String sql) throws IOException, InterruptedException {
        run(List.of(bin.resolve("psql").toString(), "-v", "ON_ERROR_STOP=1", "-q", "-h", dir.toString(), "-p",
                Integer.toString(port), "-U", USER, "-d", database, "-c", sql), root, dir);
    }

    private void stop(boolean root, Path data) {
        try {
            run(List.of(bin.resolve("pg_ctl").toString(), "-D", data.toString(), "-m", "immediate", "-w", "stop"),
                    root, dir);
        } catch (IOException | InterruptedException | IllegalStateException e) {
            // the JVM is exiting; the directory is temporary
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // left behind in the temporary directory
        }
    }

    /** Debian's PostgreSQL, installed with apt-get when missing (as {@link LocalRedis} installs redis-server). */
    private static Path installed() throws IOException {
        DebianPackage.require("postgresql", () -> {
            try {
                return newest().isPresent();
            } catch (IOException e) {
                return false;
            }
        });
        return newest().orElseThrow();
    }

    private static java.util.Optional<Path> newest() throws IOException {
        if (!Files.isDirectory(VERSIONS)) {
            return java.util.Optional.empty();
        }
        try (Stream<Path> versions = Files.list(VERSIONS)) {
            return versions.map(v -> v.resolve("bin"))
                    .filter(b -> Files.isExecutable(b.resolve("initdb")) && Files.isExecutable(b.resolve("pg_ctl")))
                    .max(Comparator.comparing(b -> version(b.getParent().getFileName().toString())));
        }
    }

    private static int version(String name) {
        return name.matches("[0-9]{1,4}") ? Integer.parseInt(name) : -1;
    }

    private static void run(List<String> command, boolean asPostgres, Path dir) throws IOException, InterruptedException {
        List<String> full = new ArrayList<>();
        if (asPostgres) {
            full.addAll(List.of("runuser", "-u", "postgres", "--"));
        }
        full.addAll(command);
        Path log = Files.createTempFile("warden-postgres-cmd-", ".log");
        try {
            Process p = new ProcessBuilder(full).directory(dir.toFile()).redirectErrorStream(true)
                    .redirectOutput(log.toFile()).start();
            if (!p.waitFor(2, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                throw new IOException(String.join(" ", command) + " did not finish");
            }
            if (p.exitValue() != 0) {
                throw new IOException(String.join(" ", command) + " failed (" + p.exitValue() + "): "
                        + Files.readString(log));
            }
        } finally {
            Files.deleteIfExists(log);
        }
    }
}
