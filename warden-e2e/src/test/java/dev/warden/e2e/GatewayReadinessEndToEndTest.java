package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import dev.warden.testkit.LocalPostgres;
import dev.warden.testkit.LocalRedis;
import dev.warden.testkit.TcpRelay;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;

/**
 * One {@code warden gateway} with {@code redis:} (a real Redis that the test stops and starts) and
 * {@code postgres:} (the real PostgreSQL of scripts/test-postgres, reached through a relay the test
 * cuts): {@code /readyz} follows the stores, naming the one that fails and nothing else (no address,
 * no error text), while {@code /livez} stays 200 and calls are still answered ({@code
 * rateLimitsWhenDown: open}; audit not fail-closed). The probes are cached (0.5 s Redis, 1 s
 * PostgreSQL), so each change is waited for, with a bound.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GatewayReadinessEndToEndTest {

    static final String PG_URL = LocalPostgres.shared().url();
    static final Duration PATIENCE = Duration.ofSeconds(30);

    final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    final String schema = "e2e_ready_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
    LocalRedis redis;
    TcpRelay relay;
    HttpGateway gateway;
    String session;
    int nextId = 10;

    @BeforeAll
    void aGatewayOnRedisAndPostgres() throws Exception {
        redis = LocalRedis.start(Path.of("target", "redis-readiness-e2e"));
        URI pg = URI.create(PG_URL);
        relay = TcpRelay.to(pg.getHost(), pg.getPort() < 0 ? 5432 : pg.getPort());
        String[] userInfo = pg.getUserInfo().split(":", 2);
        String yaml = """
                http: { port: 0 }
                rateLimit: { perClient: 100000/m }
                redis: { url: "redis://127.0.0.1:%d", cluster: ready-%s, rateLimitsWhenDown: open }
                postgres:
                  url: "postgresql://%s:${WARDEN_E2E_PG_PASSWORD}@127.0.0.1:%d%s"
                  schema: %s
                upstreams:
                  everything:
                    command: [%s, %s, stdio]
                """.formatted(redis.port(), schema.substring(9), userInfo[0], relay.port(), pg.getPath(), schema,
                Processes.NODE, WardenClientWithServerEverythingTest.SERVER);
        gateway = HttpGateway.start(yaml, 1, Map.of("WARDEN_E2E_PG_PASSWORD", userInfo[1]));
        session = AuthedHttp.initialize(gateway.url(), Map.of(), "readiness");
    }

    @AfterAll
    void stop() throws Exception {
        if (gateway != null) {
            gateway.stop();
        }
        if (redis != null) {
            redis.close();
        }
        if (relay != null) {
            relay.close();
            URI pg = URI.create(PG_URL);
            String[] userInfo = pg.getUserInfo().split(":", 2);
            try (Connection c = DriverManager.getConnection("jdbc:postgresql://" + pg.getHost() + ":"
                    + (pg.getPort() < 0 ? 5432 : pg.getPort()) + pg.getPath(), userInfo[0], userInfo[1]);
                 Statement s = c.createStatement()) {
                s.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
            }
        }
    }

    @Test
    void readinessFollowsRedisAndPostgresNamingOnlyTheStoreThatFails() throws Exception {
        // Awaited, not asked once: on a loaded machine the other store's probe may miss its own bound for a moment.
        awaitProbe(r -> r.statusCode() == 200, "/readyz 200 at the start");

        redis.stop();
        try {
            HttpResponse<String> notReady = awaitProbe(r -> r.statusCode() == 503
                    && failing(r).equals(List.of("redis")), "/readyz 503 naming Redis alone, with Redis stopped");
            assertThat(notReady.body()).doesNotContain("127.0.0.1").doesNotContain(Integer.toString(redis.port()));
            assertThat(probe("/livez").statusCode()).as("alive, only not ready").isEqualTo(200);
            JsonNode answer = echo();
            assertThat(answer.has("result")).as("a call answered with Redis away: %s", answer).isTrue();
            assertThat(answer.path("result").path("isError").asBoolean(false)).as(answer.toString()).isFalse();
        } finally {
            redis.start();
        }
        awaitProbe(r -> r.statusCode() == 200, "/readyz 200 once Redis is back");

        relay.cut();
        try {
            HttpResponse<String> notReady = awaitProbe(r -> r.statusCode() == 503
                    && failing(r).equals(List.of("postgres")), "/readyz 503 naming PostgreSQL alone, cut off");
            assertThat(notReady.body()).doesNotContain("127.0.0.1").doesNotContain(Integer.toString(relay.port()));
            assertThat(probe("/livez").statusCode()).isEqualTo(200);
        } finally {
            relay.restore();
        }
        awaitProbe(r -> r.statusCode() == 200, "/readyz 200 once PostgreSQL answers again");
        assertThat(echo().has("result")).isTrue();
    }

    private JsonNode echo() throws Exception {
        return AuthedHttp.call(gateway.url(), Map.of(), session, nextId++, "echo", "{\"message\":\"ready?\"}");
    }

    private HttpResponse<String> probe(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(gateway.url()).resolve(path)).timeout(PATIENCE).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** Asks {@code /readyz} until {@code condition} holds, for at most {@link #PATIENCE}: the probes are cached. */
    private HttpResponse<String> awaitProbe(Predicate<HttpResponse<String>> condition, String what) throws Exception {
        Instant deadline = Instant.now().plus(PATIENCE);
        while (true) {
            HttpResponse<String> r = probe("/readyz");
            if (condition.test(r)) {
                return r;
            }
            assertThat(Instant.now()).as("%s (last: %d %s)", what, r.statusCode(), r.body()).isBefore(deadline);
            LockSupport.parkNanos(50_000_000); // the next look, not a wait for time
        }
    }

    private static List<String> failing(HttpResponse<String> r) {
        JsonNode body = Json.mapper().readTree(r.body());
        assertThat(body.path("ready").asBoolean(true)).as(r.body()).isFalse();
        return body.path("failing").valueStream().map(JsonNode::asString).toList();
    }
}
