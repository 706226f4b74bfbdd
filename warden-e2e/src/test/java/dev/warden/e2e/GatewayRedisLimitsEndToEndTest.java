package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import dev.warden.testkit.LocalRedis;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;

/**
 * Two {@code warden gateway} processes ("replicas") on one real Redis ({@code redis:} in
 * warden.yaml), a per-client rate of N a minute, one API key's caller: calls spread over both
 * replicas are admitted N times in all (plus what refills meanwhile), not N per replica. Also
 * counts the Redis commands a call costs (INFO commandstats), docs/operations/redis.md's figure.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GatewayRedisLimitsEndToEndTest {

    static final int N = 10;
    static final int CALLS = 30;

    LocalRedis redis;
    HttpGateway first;
    HttpGateway second;
    GatewayApiKeysEndToEndTest.Minted ciBot;

    @BeforeAll
    void start() throws Exception {
        redis = LocalRedis.start(Path.of("target", "redis-e2e"));
        Path keysFile = Files.createTempDirectory("warden-redis-e2e").resolve("api-keys.yaml");
        ciBot = GatewayApiKeysEndToEndTest.mint("ci-bot");
        Files.writeString(keysFile, "keys:\n" + ciBot.entry() + "\n");
        String yaml = """
                http: { port: 0 }
                auth:
                  scopes: [mcp:tools]
                  apiKeys:
                    file: %s
                rateLimit: { perClient: %d/m }
                redis: { url: "redis://127.0.0.1:${WARDEN_TEST_REDIS_PORT}", cluster: e2e-%s }
                upstreams:
                  everything:
                    command: [%s, %s, stdio]
                """.formatted(keysFile, N, UUID.randomUUID().toString().substring(0, 8), Processes.NODE,
                WardenClientWithServerEverythingTest.SERVER);
        Map<String, String> env = Map.of("WARDEN_TEST_REDIS_PORT", Integer.toString(redis.port()));
        first = HttpGateway.start(yaml, 1, env);
        second = HttpGateway.start(yaml, 1, env);
    }

    @AfterAll
    void stop() throws Exception {
        for (HttpGateway g : new HttpGateway[] {first, second}) {
            if (g != null) {
                g.stop();
            }
        }
        if (redis != null) {
            redis.close();
        }
    }

    @Test
    void aPerClientLimitHoldsAcrossTwoReplicas() throws Exception {
        Map<String, String> key = AuthedHttp.apiKey(ciBot.key());
        List<HttpGateway> replicas = List.of(first, second);
        // From before the initializes: their tools/list spend from the bucket, which refills from then on.
        long start = System.nanoTime();
        List<String> sessions = List.of(AuthedHttp.initialize(first.url(), key, "replica-a"),
                AuthedHttp.initialize(second.url(), key, "replica-b"));
        redis.command("CONFIG", "RESETSTAT");
        int admitted = 0;
        int limited = 0;
        int[] perReplica = new int[2];
        for (int i = 0; i < CALLS; i++) {
            int r = i % 2;
            JsonNode answer = AuthedHttp.call(replicas.get(r).url(), key, sessions.get(r), 10 + i, "echo",
                    "{\"message\":\"call " + i + "\"}");
            if (!answer.at("/result/isError").asBoolean()) {
                admitted++;
                perReplica[r]++;
            } else {
                JsonNode error = Json.mapper().readTree(answer.at("/result/content/0/text").asString()).get("error");
                assertThat(error.get("code").asString()).as(answer.toString()).isEqualTo("RATE_LIMITED");
                limited++;
            }
        }
        double minutes = (System.nanoTime() - start) / 60e9;
        List<String> stats = redis.commandStats();
        // The bucket refills greedily: N a minute, so what the run's own duration gave back is the tolerance.
        int tolerance = (int) Math.ceil(N * minutes);
        System.out.printf("redis-limits e2e: %d calls over 2 replicas in %.1f s: %d admitted (%d + %d), %d limited;"
                + " tolerance %d; Redis commands: %s%n", CALLS, minutes * 60, admitted, perReplica[0], perReplica[1],
                limited, tolerance, stats);
        // Each replica's session listed the tools once (AuthedHttp.initialize): two of the N spent.
        assertThat(admitted).isBetween(N - 2, N - 2 + tolerance);
        assertThat(perReplica[0]).as("both replicas served calls").isPositive();
        assertThat(perReplica[1]).as("both replicas served calls").isPositive();
        assertThat(Files.readString(first.peer().stderr) + Files.readString(second.peer().stderr))
                .doesNotContain(ciBot.key());
    }
}
