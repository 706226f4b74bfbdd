package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import tools.jackson.databind.JsonNode;

/**
 * Issue 18's acceptance through the real parts: {@code scripts/cluster up 3} (three {@code warden
 * gateway} replicas behind HAProxy in round robin, Redis and PostgreSQL configured by the script),
 * in front of server-everything over stdio, with API keys, a per-client rate of {@value #N} a
 * minute and audit fail-closed into PostgreSQL. It proves a rate limit holds across the replicas,
 * an incident one replica recorded is shown by {@code warden incidents} run elsewhere, the
 * TypeScript SDK's session-based workload (progress, a cancelled call, elicitation round trips,
 * a log level, a subscription and its update) and a 2026-07-28 client's workload run with every
 * request spread by round robin and no "session not found", and that a
 * {@code kill -9} of a replica under load fails only the calls in flight on it, each with an error
 * whose retry succeeds, loses no acknowledged audit record and leaves the survivors ready. The
 * figures are printed on lines starting {@code ACCEPTANCE:}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ReplicaClusterEndToEndTest {

    static final int REPLICAS = 3;
    /**
     * Each API key's rate a minute. Every request that reaches the upstream spends it (listings,
     * subscriptions and log levels too), so the session workload's two rounds (16 requests, more
     * with the SDK's own listings) fit with room.
     */
    static final int N = 30;
    static final int CALLS = 45;
    static final Path DIR = ReplicaCluster.ROOT.resolve("warden-e2e/target/replica-cluster-e2e");
    static final Path OWN = ReplicaCluster.ROOT.resolve("warden-e2e/target/replica-cluster-e2e-config");
    static final Pattern REF = Pattern.compile("ref_[a-km-z2-9]{16}");

    final String run = UUID.randomUUID().toString().substring(0, 8);
    final Map<String, String> keys = new LinkedHashMap<>();
    ReplicaCluster cluster;

    @BeforeAll
    void up() throws Exception {
        Files.createDirectories(OWN);
        StringBuilder keysFile = new StringBuilder("keys:\n");
        List<String> names = new ArrayList<>(List.of("rate-" + run, "incident-" + run, "session-" + run,
                "stateless-" + run));
        for (int w = 0; w < KillUnderLoad.WORKERS; w++) {
            names.add(KillUnderLoad.worker(run, w));
        }
        for (String name : names) {
            String key = "wdn_" + Base64.getUrlEncoder().withoutPadding().encodeToString(random(32));
            keys.put(name, key);
            keysFile.append("  - { name: ").append(name).append(", sha256: ").append(HexFormat.of().formatHex(
                    MessageDigest.getInstance("SHA-256").digest(key.getBytes()))).append(", scopes: [mcp:tools] }\n");
        }
        Files.writeString(OWN.resolve("api-keys.yaml"), keysFile);
        // No redis:, postgres: or http.sessions: scripts/cluster adds them (its own Redis, the
        // schema warden_cluster, a session key file).
        Files.writeString(OWN.resolve("warden.yaml"), """
                auth:
                  scopes: [mcp:tools]
                  apiKeys: { file: %s }
                rateLimit: { perClient: %d/m }
                audit: { failClosed: true }
                upstreams:
                  everything:
                    command: [%s, %s, stdio]
                """.formatted(OWN.resolve("api-keys.yaml"), N, Processes.NODE,
                WardenClientWithServerEverythingTest.SERVER));
        cluster = ReplicaCluster.up(DIR, REPLICAS, OWN.resolve("warden.yaml"));
    }

    @AfterAll
    void down() throws Exception {
        ReplicaCluster.script(DIR, "down"); // also after a failed up or a failed test
    }

    static byte[] random(int n) {
        byte[] bytes = new byte[n];
        new SecureRandom().nextBytes(bytes);
        return bytes;
    }

    @Test
    @Order(3)
    void aRateOfNPerMinuteForOneSubjectAdmitsAtMostNAcrossTheThreeReplicas() throws Exception {
        Map<String, String> key = AuthedHttp.apiKey(keys.get("rate-" + run));
        // From before the key's first request: the bucket refills from when that request made it,
        // so the tolerance below is counted from no later than that.
        long start = System.nanoTime();
        String session = AuthedHttp.initialize(cluster.url(), key, "rate-" + run);
        Map<String, Integer> before = cluster.requestsPerReplica();
        Map<String, Integer> admittedBy = new java.util.TreeMap<>();
        int admitted = 0;
        int limited = 0;
        for (int i = 0; i < CALLS; i++) {
            FrontCall call = FrontCall.send(cluster.url(), key, session, 100 + i, "echo",
                    "{\"message\":\"call " + i + "\"}", r -> { });
            assertThat(call.ending()).as(call.detail()).isEqualTo(FrontCall.Ending.ANSWERED);
            if (!call.answer().at("/result/isError").asBoolean()) {
                admitted++;
                admittedBy.merge(call.replica(), 1, Integer::sum);
            } else {
                JsonNode error = Json.mapper().readTree(call.answer().at("/result/content/0/text").asString())
                        .get("error");
                assertThat(error.get("code").asString()).as(call.answer().toString()).isEqualTo("RATE_LIMITED");
                limited++;
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        Map<String, Integer> after = cluster.requestsPerReplica();
        Map<String, Integer> spread = new java.util.TreeMap<>();
        after.forEach((r, n) -> spread.put(r, n - before.getOrDefault(r, 0)));
        // The bucket refills greedily (N a minute): what the run's own length (listing included)
        // gave back is the tolerance, 0 while it takes under 60/N seconds.
        int tolerance = (int) Math.floor(N * seconds / 60);
        System.out.printf("ACCEPTANCE: rate limit %d/min for one API key, %d calls through HAProxy over %d replicas"
                + " in %.1f s: %d admitted (by replica %s), %d refused RATE_LIMITED; tolerance %d; HAProxy's requests"
                + " per replica %s%n", N, CALLS, REPLICAS, seconds, admitted, admittedBy, limited, tolerance, spread);
        // The session listed the tools once (AuthedHttp.initialize): one of the N spent.
        assertThat(admitted).isBetween(N - 1, N - 1 + tolerance);
        assertThat(spread).as("round robin: every replica served calls").hasSize(REPLICAS)
                .allSatisfy((r, n) -> assertThat(n).as(r).isPositive());
        assertThat(spread.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(CALLS);
    }

    @Test
    @Order(4)
    void anIncidentRecordedByOneReplicaIsShownByWardenIncidentsRunAsAnotherProcess() throws Exception {
        Map<String, String> key = AuthedHttp.apiKey(keys.get("incident-" + run));
        String session = AuthedHttp.initialize(cluster.url(), key, "incident-" + run);
        FrontCall call = FrontCall.send(cluster.url(), key, session, 7, "no_such_tool", "{}", r -> { });
        Matcher m = REF.matcher(String.valueOf(call.answer()));
        assertThat(m.find()).as("a ref in %s", call.answer()).isTrue();
        String ref = m.group();

        // Not a replica: only the cluster's configuration, and a data directory of its own.
        Path elsewhere = Files.createTempDirectory("warden-incidents-elsewhere");
        Processes.Result shown = warden("incidents", "show", ref, "--config", cluster.config().toString(),
                "--data-dir", elsewhere.toString());
        assertThat(shown.exitCode()).as(shown.stderr()).isZero();
        assertThat(shown.stdout()).contains("ref:       " + ref).contains("code:      NOT_FOUND");
        Processes.Result listed = warden("incidents", "list", "--config", cluster.config().toString(),
                "--data-dir", elsewhere.toString(), "--since", "1h");
        assertThat(listed.exitCode()).as(listed.stderr()).isZero();
        assertThat(listed.stdout()).contains(ref);
        System.out.printf("ACCEPTANCE: incident %s recorded by %s, shown by `warden incidents show` and listed by"
                + " `warden incidents list` from a separate process (PostgreSQL, schema warden_cluster)%n", ref,
                call.replica());
    }

    @Test
    @Order(1)
    void theTypeScriptSdksSessionWorkloadRunsAcrossTheReplicasWithoutSessionNotFound() throws Exception {
        Processes.Result result = Processes.run(Processes.node("session-workload.mjs", cluster.url(), "--rounds", "2"),
                Map.of("WORKLOAD_HEADERS", Json.write(Json.tree(AuthedHttp.apiKey(keys.get("session-" + run))))));
        assertThat(result.exitCode()).as(result.stderr()).isZero();
        JsonNode run = Json.mapper().readTree(result.stdout());
        System.out.printf("ACCEPTANCE: TypeScript SDK session workload through HAProxy over %d replicas: steps %s;"
                + " HTTP statuses %s; elicitations %d, resource updates %d%n", REPLICAS, steps(run),
                run.path("statuses"), run.path("elicitations").asInt(), run.path("updates").asInt());
        assertThat(run.path("steps")).as(run.toString()).allSatisfy(step ->
                assertThat(step.path("ok").asBoolean()).as(step.toString()).isTrue());
        assertThat(run.path("notFound")).as("\"session not found\": 404s on the session").isEmpty();
        assertThat(run.path("badResumes")).as("resumptions refused").isEmpty();
        assertThat(run.path("elicitations").asInt()).isEqualTo(2);
        assertThat(run.path("updates").asInt()).isPositive();
    }

    @Test
    @Order(2)
    void aStatelessClientsWorkloadRunsAcrossTheReplicas() throws Exception {
        // A cluster of its own: server-everything's simulated updates come only from the upstream
        // process whose session a toggle started them in, and the gateway subscribes a client on
        // its first connection to the upstream, made by whichever client came first (the session
        // workload's capabilities, had it stayed): see docs/operations/replicas.md, portable sessions.
        ReplicaCluster.script(DIR, "down");
        cluster = ReplicaCluster.up(DIR, REPLICAS, OWN.resolve("warden.yaml"));
        Processes.Result result = Processes.run(Processes.node("stateless-workload.mjs", cluster.url()),
                Map.of("WORKLOAD_HEADERS", Json.write(Json.tree(AuthedHttp.apiKey(keys.get("stateless-" + run))))));
        assertThat(result.exitCode()).as(result.stderr()).isZero();
        JsonNode run = Json.mapper().readTree(result.stdout());
        System.out.printf("ACCEPTANCE: 2026-07-28 workload through HAProxy over %d replicas: ok %s, steps %s,"
                + " HTTP statuses %s%n", REPLICAS, run.path("ok"), run.path("steps").propertyNames(),
                run.path("statuses"));
        assertThat(run.path("ok").asBoolean()).as(run.toString()).isTrue();
        assertThat(run.path("unknownRequestState").asInt()).isZero();
        assertThat(run.path("sessionNotFound").asInt()).isZero();
    }

    private static List<String> steps(JsonNode run) {
        List<String> steps = new ArrayList<>();
        run.path("steps").forEach(s -> steps.add(s.path("name").asString() + (s.path("ok").asBoolean() ? "" : " FAILED")));
        return steps;
    }

    @Test
    @Order(5)
    void aKill9UnderLoadFailsOnlyTheCallsInFlightOnItAndTheirRetriesSucceed() throws Exception {
        KillUnderLoad.Report report = new KillUnderLoad(cluster, run, keys, "replica-2",
                List.of("replica-1", "replica-3")).run();
        report.print();

        assertThat(report.unexpected()).as("calls that ended neither answered nor with a retryable cut"
                + " (\"session not found\" would be here)").isEmpty();
        assertThat(report.failed()).as("calls in flight on the killed replica").isNotEmpty()
                .allSatisfy(a -> {
                    assertThat(a.call().replica()).as(a.toString()).isEqualTo("replica-2");
                    assertThat(a.call().ending()).as(a.toString())
                            .isIn(FrontCall.Ending.PROXY_ERROR, FrontCall.Ending.CUT_STREAM);
                });
        assertThat(report.failed()).as("every call cut by the kill is answered when sent again").allSatisfy(f ->
                assertThat(report.retries()).as(f.toString()).anySatisfy(r -> {
                    assertThat(r.worker() + " " + r.index()).isEqualTo(f.worker() + " " + f.index());
                    assertThat(r.call().answered()).isTrue();
                }));
        assertThat(report.retries()).as("a retry that was cut met the dying victim").allSatisfy(r -> {
            if (!r.call().answered()) {
                assertThat(r.call().replica()).as(r.toString()).isEqualTo("replica-2");
            }
        });
        assertThat(report.auditShortfall()).as("acknowledged calls without their audit record, by client").isEmpty();
        assertThat(report.readinessPolls()).isPositive();
        assertThat(report.readinessFailures()).as("a survivor's /readyz other than 200").isEmpty();
        assertThat(report.toDown()).as("HAProxy marks the killed replica DOWN").isNotNull();
        Map<String, Map<String, String>> stats = cluster.stats();
        assertThat(stats.get("replica-2").get("status")).startsWith("DOWN");
        assertThat(stats.get("replica-1").get("status")).isEqualTo("UP");
        assertThat(stats.get("replica-3").get("status")).isEqualTo("UP");
    }

    @Test
    @Order(6)
    void withNoReplicaLeftHAProxyAnswersAJsonRpcErrorCarryingTheRequestsId() throws Exception {
        for (String replica : List.of("replica-1", "replica-3")) {
            ProcessHandle p = cluster.process(replica);
            List<ProcessHandle> upstreams = p.descendants().toList();
            p.destroyForcibly();
            upstreams.forEach(ProcessHandle::destroyForcibly);
        }
        FrontCall call = FrontCall.send(cluster.url(), Map.of(), "any-session", 77, "echo", "{}", r -> { });
        System.out.printf("ACCEPTANCE: no replica left: HAProxy answered %s%n", call.detail());
        assertThat(call.ending()).as(call.detail()).isEqualTo(FrontCall.Ending.PROXY_ERROR);
        assertThat(call.answer().path("id").asInt()).isEqualTo(77);
        assertThat(call.answer().at("/error/code").asInt()).isEqualTo(-32603);
        assertThat(call.answer().at("/error/message").asString()).contains("sent again");
        assertThat(call.answer().at("/error/data/retryable").asBoolean()).isTrue();
    }

    static Processes.Result warden(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(Processes.LAUNCHER.toString()));
        command.addAll(List.of(args));
        return Processes.run(command, Map.of());
    }
}
