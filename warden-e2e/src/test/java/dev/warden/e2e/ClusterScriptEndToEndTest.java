package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.TestInstance;

/**
 * {@code scripts/cluster up 2}: two {@code warden gateway} replicas behind HAProxy (Debian's
 * package), with Redis and PostgreSQL beside them; stateless (2026-07-28) requests through the
 * front, spread by round robin; the configuration {@code up} wrote for them (the shared stores and
 * a session key file); {@code down} stops everything it started. Session-based clients
 * across replicas are another part of issue 18 and not exercised here.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClusterScriptEndToEndTest {

    static final Path ROOT = Processes.LAUNCHER.getParent();
    static final Path DIR = ROOT.resolve("warden-e2e/target/cluster-e2e");
    final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    Map<String, String> exports;

    static Processes.Result cluster(String... args) throws Exception {
        List<String> command = Stream.concat(Stream.of(ROOT.resolve("scripts/cluster").toString()), Stream.of(args))
                .toList();
        return Processes.run(command, ReplicaCluster.environment(DIR));
    }

    /**
     * Removes {@code dir} (a test's own, under target/) when the script would refuse it: left by a
     * version of the script before its marker, so not recognisably the script's state.
     */
    static void removeUnmarked(Path dir) throws java.io.IOException {
        if (Files.isDirectory(dir) && !Files.exists(dir.resolve(".warden-cluster"))) {
            try (Stream<Path> all = Files.walk(dir)) {
                for (Path p : all.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }

    @BeforeAll
    void up() throws Exception {
        removeUnmarked(DIR);
        Processes.Result up = cluster("up", "2");
        assertThat(up.exitCode()).as(up.stderr()).isZero();
        exports = new HashMap<>();
        up.stdout().lines().filter(l -> l.startsWith("export ")).forEach(l -> {
            String[] kv = l.substring("export ".length()).split("=", 2);
            exports.put(kv[0], kv[1]);
        });
    }

    @AfterAll
    void down() throws Exception {
        cluster("down"); // nothing left to stop when the last test did it
    }

    HttpResponse<String> toolsList(int id) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(exports.get("WARDEN_CLUSTER_URL")))
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .header("MCP-Protocol-Version", "2026-07-28").header("Mcp-Method", "tools/list")
                .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":"
                        + "\"tools/list\",\"params\":{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":"
                        + "\"2026-07-28\",\"io.modelcontextprotocol/clientCapabilities\":{}}}}")).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** HAProxy's own count of the requests it gave each replica (its stats page, CSV). */
    Map<String, Integer> requestsPerReplica() throws Exception {
        String csv = http.send(HttpRequest.newBuilder(URI.create(exports.get("WARDEN_CLUSTER_STATS") + ";csv"))
                .GET().build(), HttpResponse.BodyHandlers.ofString()).body();
        List<String> header = List.of(csv.lines().findFirst().orElseThrow().replace("# ", "").split(","));
        int column = header.indexOf("req_tot");
        Map<String, Integer> counts = new HashMap<>();
        csv.lines().map(l -> l.split(",", -1)).filter(f -> f[0].equals("replicas") && f[1].startsWith("replica-"))
                .forEach(f -> counts.put(f[1], Integer.parseInt(f[column])));
        return counts;
    }

    @Test
    void upPrintsTheFrontAndTheSharedStoresAsExports() {
        assertThat(exports.get("WARDEN_CLUSTER_URL")).matches("http://127\\.0\\.0\\.1:\\d+/mcp");
        assertThat(exports.get("WARDEN_REDIS_URL")).matches("redis://:[0-9a-f]{48}@127\\.0\\.0\\.1:\\d+");
        assertThat(exports.get("WARDEN_PG_URL")).startsWith("postgresql://").contains("@127.0.0.1:");
    }

    @Test
    void theRedisItStartedAnswersWithItsPasswordOnly() throws Exception {
        URI redis = URI.create(exports.get("WARDEN_REDIS_URL"));
        List<String> ping = List.of("redis-cli", "--no-auth-warning", "-h", redis.getHost(), "-p",
                String.valueOf(redis.getPort()), "ping");
        String password = redis.getUserInfo().substring(1);

        Processes.Result withPassword = Processes.run(ping, Map.of("REDISCLI_AUTH", password));
        Processes.Result without = Processes.run(ping);

        assertThat(withPassword.stdout().strip()).isEqualTo("PONG");
        assertThat(without.stdout() + without.stderr()).contains("NOAUTH");
        assertThat(Files.getPosixFilePermissions(DIR.resolve("redis/redis.conf")))
                .containsExactlyInAnyOrder(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);
        assertThat(Files.getPosixFilePermissions(DIR.resolve("env")))
                .containsExactlyInAnyOrder(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);
    }

    @Test
    void upRefusesADirectoryThatHoldsSomethingElseAndLeavesItAlone() throws Exception {
        Path other = Files.createTempDirectory("warden-cluster-e2e-other");
        Files.writeString(other.resolve("precious.txt"), "keep me\n");

        Processes.Result up;
        try {
            up = Processes.run(List.of(ROOT.resolve("scripts/cluster").toString(), "up", "1"),
                    ReplicaCluster.environment(other));
        } finally {
            // Were the directory taken after all, nothing the script started there stays running.
            Processes.run(List.of(ROOT.resolve("scripts/cluster").toString(), "down"),
                    ReplicaCluster.environment(other));
        }

        assertThat(up.exitCode()).isNotZero();
        assertThat(up.stderr()).contains("not scripts/cluster's");
        assertThat(Files.readString(other.resolve("precious.txt"))).isEqualTo("keep me\n");
    }

    @Test
    void downWaitsForAReplicaToDrainWhenItsPathHasSpacesAndQuotes() throws Exception {
        Path odd = Files.createTempDirectory("warden cluster 'e2e' \"odd\"");
        Files.createDirectories(odd.resolve("replica-1"));
        Files.writeString(odd.resolve(".warden-cluster"), "");
        // A replica that takes a moment to drain after SIGTERM, as a gateway with calls in flight does.
        Process replica = new ProcessBuilder("bash", "-c", "trap 'sleep 1; exit 0' TERM; while :; do sleep 0.1; done")
                .start();
        Files.writeString(odd.resolve("replica-1/pid"), replica.pid() + "\n");

        Processes.Result down = Processes.run(List.of(ROOT.resolve("scripts/cluster").toString(), "down"),
                ReplicaCluster.environment(odd));

        assertThat(down.exitCode()).as(down.stderr()).isZero();
        assertThat(running(replica.pid())).as("down returned only once the replica had stopped").isFalse();
        assertThat(down.stderr()).as("stopped by its SIGTERM").doesNotContain("SIGKILL");
    }

    @Test
    void readinessAnswersThroughTheFront() throws Exception {
        URI front = URI.create(exports.get("WARDEN_CLUSTER_URL")).resolve("/readyz");
        HttpResponse<String> ready = http.send(HttpRequest.newBuilder(front).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(ready.statusCode()).isEqualTo(200);
        assertThat(ready.body()).isEqualTo("{\"ready\":true,\"failing\":[]}");
    }

    @Test
    void roundRobinSpreadsStatelessRequestsOverBothReplicas() throws Exception {
        Map<String, Integer> before = requestsPerReplica();
        for (int id = 1; id <= 6; id++) {
            HttpResponse<String> listed = toolsList(id);
            assertThat(listed.statusCode()).isEqualTo(200);
            assertThat(Json.mapper().readTree(listed.body()).at("/result/tools").isArray()).isTrue();
        }
        Map<String, Integer> after = requestsPerReplica();
        assertThat(after.keySet()).containsExactlyInAnyOrder("replica-1", "replica-2");
        assertThat(after.get("replica-1") - before.get("replica-1")).isEqualTo(3);
        assertThat(after.get("replica-2") - before.get("replica-2")).isEqualTo(3);
    }

    @Test
    void upConfiguresTheReplicasToShareRedisPostgresAndSessionKeys() throws Exception {
        String config = Files.readString(Path.of(exports.get("WARDEN_CLUSTER_CONFIG")));
        assertThat(config).contains("redis: { url: \"" + exports.get("WARDEN_REDIS_URL") + "\"")
                .contains("postgres: { url: \"" + exports.get("WARDEN_PG_URL") + "\", schema: warden_cluster }")
                .contains("portable: { keyFile: " + DIR.resolve("session-keys") + " }");
        assertThat(Files.getPosixFilePermissions(DIR.resolve("session-keys")))
                .containsExactlyInAnyOrder(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);
        assertThat(Files.readString(DIR.resolve("session-keys"))).matches("k1 [A-Za-z0-9_-]{43}\n");
    }

    @Test
    void aFailedUpStopsWhatItStartedAndSaysWhy() throws Exception {
        Path failing = DIR.resolveSibling("cluster-e2e-failing");
        removeUnmarked(failing);
        Path config = Files.createTempDirectory("warden-cluster-e2e").resolve("warden.yaml");
        Files.writeString(config, "nonsense: 1\n");
        List<String> command = List.of(ROOT.resolve("scripts/cluster").toString(), "up", "2", "--config",
                config.toString());

        Processes.Result up = Processes.run(command, ReplicaCluster.environment(failing));

        assertThat(up.exitCode()).isNotZero();
        assertThat(up.stderr()).contains("replica 1 did not start").contains("nonsense").contains("up failed");
        assertThat(Stream.of("replica-1/pid", "replica-2/pid").map(failing::resolve)
                .map(ClusterScriptEndToEndTest::readPid)).noneMatch(ClusterScriptEndToEndTest::running);
        // Redis removes its pid file when it stops: its log says it did.
        assertThat(Files.readString(failing.resolve("redis/redis.log"))).contains("ready to exit");
    }

    @Test
    @Order(Integer.MAX_VALUE) // last: the others need the cluster up
    void downStopsEverythingItStarted() throws Exception {
        List<Long> pids = Stream.of("replica-1/pid", "replica-2/pid", "haproxy.pid", "redis/redis.pid")
                .map(p -> readPid(DIR.resolve(p))).toList();
        assertThat(pids).allMatch(ClusterScriptEndToEndTest::running);

        Processes.Result down = cluster("down");

        assertThat(down.exitCode()).as(down.stderr()).isZero();
        assertThat(pids).noneMatch(ClusterScriptEndToEndTest::running);
        assertThat(cluster("status").exitCode()).isEqualTo(3);
    }

    /**
     * Whether the process runs: one that exited counts as stopped even while it waits to be reaped
     * (the replicas outlive the script that started them, so init is their parent, and some never reap).
     */
    static boolean running(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            return stat.charAt(stat.lastIndexOf(')') + 2) != 'Z';
        } catch (java.io.IOException e) {
            return false;
        }
    }

    static long readPid(Path file) {
        try {
            return Long.parseLong(Files.readString(file).strip());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
