package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.testkit.LocalPostgres;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A cluster that {@code scripts/cluster up N --config FILE} started under {@code dir}: its front,
 * HAProxy's view of each replica, each replica's own port and process, and the PostgreSQL it
 * configured. {@link #close()} is {@code scripts/cluster down}.
 */
final class ReplicaCluster implements AutoCloseable {

    static final Path ROOT = Processes.LAUNCHER.getParent();

    private final Path dir;
    private final Map<String, String> exports;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    private ReplicaCluster(Path dir, Map<String, String> exports) {
        this.dir = dir;
        this.exports = exports;
    }

    static Processes.Result script(Path dir, String... args) throws Exception {
        List<String> command = Stream.concat(Stream.of(ROOT.resolve("scripts/cluster").toString()), Stream.of(args))
                .toList();
        return Processes.run(command, environment(dir));
    }

    /**
     * The environment scripts/cluster runs in: its directory, and this JVM's PostgreSQL
     * ({@link LocalPostgres}) in place of the machine's that scripts/test-postgres would start.
     */
    static Map<String, String> environment(Path dir) {
        return Map.of("WARDEN_CLUSTER_DIR", dir.toString(), "WARDEN_CLUSTER_PG_URL", LocalPostgres.shared().url());
    }

    /** Up, or down again and failing with the script's own words. */
    static ReplicaCluster up(Path dir, int replicas, Path config) throws Exception {
        ClusterScriptEndToEndTest.removeUnmarked(dir);
        Processes.Result up = script(dir, "up", Integer.toString(replicas), "--config", config.toString());
        assertThat(up.exitCode()).as(up.stderr()).isZero();
        Map<String, String> exports = new HashMap<>();
        up.stdout().lines().filter(l -> l.startsWith("export ")).forEach(l -> {
            String[] kv = l.substring("export ".length()).split("=", 2);
            exports.put(kv[0], kv[1]);
        });
        return new ReplicaCluster(dir, exports);
    }

    String url() {
        return exports.get("WARDEN_CLUSTER_URL");
    }

    /** The replicas' configuration as {@code up} wrote it (the shared stores added). */
    Path config() {
        return Path.of(exports.get("WARDEN_CLUSTER_CONFIG"));
    }

    int port(String replica) throws Exception {
        return Integer.parseInt(Files.readString(dir.resolve(replica).resolve("port")).strip());
    }

    ProcessHandle process(String replica) throws Exception {
        long pid = Long.parseLong(Files.readString(dir.resolve(replica).resolve("pid")).strip());
        return ProcessHandle.of(pid).orElseThrow(() -> new AssertionError(replica + " is not running"));
    }

    /** A replica's own {@code GET /readyz} status (not through HAProxy); -1 when it does not answer. */
    int readiness(int port) {
        try {
            return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/readyz"))
                    .timeout(Duration.ofSeconds(5)).GET().build(), HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (Exception e) {
            return -1;
        }
    }

    /** HAProxy's stats page (CSV): for each replica, its columns by name ({@code status}, {@code req_tot}, ...). */
    Map<String, Map<String, String>> stats() throws Exception {
        String csv = http.send(HttpRequest.newBuilder(URI.create(exports.get("WARDEN_CLUSTER_STATS") + ";csv"))
                .timeout(Duration.ofSeconds(5)).GET().build(), HttpResponse.BodyHandlers.ofString()).body();
        List<String> header = List.of(csv.lines().findFirst().orElseThrow().replace("# ", "").split(","));
        Map<String, Map<String, String>> servers = new HashMap<>();
        csv.lines().map(l -> l.split(",", -1)).filter(f -> f[0].equals("replicas") && f[1].startsWith("replica-"))
                .forEach(f -> {
                    Map<String, String> columns = new HashMap<>();
                    for (int i = 0; i < Math.min(header.size(), f.length); i++) {
                        columns.put(header.get(i), f[i]);
                    }
                    servers.put(f[1], columns);
                });
        return servers;
    }

    Map<String, Integer> requestsPerReplica() throws Exception {
        Map<String, Integer> counts = new HashMap<>();
        stats().forEach((server, columns) -> counts.put(server, Integer.parseInt(columns.get("req_tot"))));
        return counts;
    }

    /** The cluster's PostgreSQL, as the configuration names it. */
    Connection postgres() throws Exception {
        URI pg = URI.create(exports.get("WARDEN_PG_URL"));
        String[] userInfo = pg.getUserInfo().split(":", 2);
        return DriverManager.getConnection("jdbc:postgresql://" + pg.getHost() + ":"
                + (pg.getPort() < 0 ? 5432 : pg.getPort()) + pg.getPath(), userInfo[0], userInfo[1]);
    }

    @Override
    public void close() throws Exception {
        script(dir, "down");
    }
}
