package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.testkit.LocalPostgres;
import dev.warden.testkit.TcpRelay;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Two {@code warden gateway} processes sharing incidents and audit in the real PostgreSQL of
 * {@link LocalPostgres}, reached through a relay in this test so that the database can be cut off
 * from them without stopping it. The password is
 * in the configuration only as {@code ${WARDEN_E2E_PG_PASSWORD}}.
 */
class GatewayPostgresStoreEndToEndTest {

    static final String URL = LocalPostgres.shared().url();
    static final Pattern REF = Pattern.compile("ref_[a-km-z2-9]{16}");
    static final Duration PATIENCE = Duration.ofSeconds(30);

    static TcpRelay relay;
    static String schema = "e2e_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    static Path config;
    static Map<String, String> env;
    static String yaml;
    static HttpGateway a;
    static HttpGateway b;

    @BeforeAll
    static void twoGatewaysOnePostgres() throws Exception {
        URI pg = URI.create(URL);
        relay = TcpRelay.to(pg.getHost(), pg.getPort() < 0 ? 5432 : pg.getPort());
        String user = pg.getUserInfo().substring(0, pg.getUserInfo().indexOf(':'));
        env = Map.of("WARDEN_E2E_PG_PASSWORD", pg.getUserInfo().substring(user.length() + 1));
        yaml = """
                http: { port: 0 }
                audit: { failClosed: true }
                postgres:
                  url: "postgresql://%s:${WARDEN_E2E_PG_PASSWORD}@127.0.0.1:%d%s"
                  schema: %s
                  maxAge: 7d
                upstreams:
                  demo:
                    command: [%s, demo]
                """.formatted(user, relay.port(), pg.getPath(), schema, Processes.LAUNCHER);
        config = Files.createTempDirectory("warden-pg-e2e").resolve("warden.yaml");
        Files.writeString(config, yaml);
        a = HttpGateway.start(yaml, 1, env);
        b = HttpGateway.start(yaml, 1, env);
    }

    @AfterAll
    static void stop() throws Exception {
        for (HttpGateway g : new HttpGateway[] {a, b}) {
            if (g != null) {
                g.stop();
            }
        }
        if (relay != null) {
            relay.close();
        }
        if (URL != null && !URL.isBlank()) {
            URI pg = URI.create(URL);
            String[] userInfo = pg.getUserInfo().split(":", 2);
            try (Connection c = DriverManager.getConnection("jdbc:postgresql://" + pg.getHost() + ":"
                    + (pg.getPort() < 0 ? 5432 : pg.getPort()) + pg.getPath(), userInfo[0], userInfo[1]);
                 Statement s = c.createStatement()) {
                s.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
            }
        }
    }

    @Test
    void afterAKill9EveryCallAnsweredHasItsAuditRecordCommitted() throws Exception {
        HttpGateway c = HttpGateway.start(yaml, 1, env);
        String client = "killed-" + UUID.randomUUID().toString().substring(0, 8);
        String session = AuthedHttp.initialize(c.url(), Map.of(), client);
        java.util.concurrent.atomic.AtomicInteger answered = new java.util.concurrent.atomic.AtomicInteger();
        List<Thread> callers = new java.util.ArrayList<>();
        for (int t = 0; t < 8; t++) {
            int first = 1000 * (t + 1);
            callers.add(Thread.ofVirtual().start(() -> {
                for (int id = first; ; id++) {
                    try {
                        JsonNode answer = AuthedHttp.call(c.url(), Map.of(), session, id, "create_user", user());
                        if (answer.has("result") && !answer.path("result").path("isError").asBoolean(false)) {
                            answered.incrementAndGet();
                        }
                    } catch (Throwable gone) {
                        return; // the gateway was killed: this call got no answer
                    }
                }
            }));
        }
        Instant deadline = Instant.now().plus(PATIENCE);
        while (answered.get() < 50) {
            assertThat(Instant.now()).as("50 calls answered").isBefore(deadline);
            Thread.sleep(10);
        }
        List<ProcessHandle> upstreams = c.peer().descendants();
        ProcessHandle.of(c.peer().pid()).orElseThrow().destroyForcibly(); // SIGKILL: no shutdown hook, no flush
        for (Thread caller : callers) {
            assertThat(caller.join(PATIENCE)).isTrue();
        }
        upstreams.forEach(ProcessHandle::destroyForcibly);
        c.stop();
        long committed;
        URI pg = URI.create(URL);
        String[] userInfo = pg.getUserInfo().split(":", 2);
        try (Connection db = DriverManager.getConnection("jdbc:postgresql://" + pg.getHost() + ":"
                + (pg.getPort() < 0 ? 5432 : pg.getPort()) + pg.getPath(), userInfo[0], userInfo[1]);
             java.sql.PreparedStatement q = db.prepareStatement("SELECT count(*) FROM " + schema + ".warden_audit "
                     + "WHERE client LIKE ? AND tool = 'create_user' AND outcome = 'OK'")) {
            q.setString(1, client + "#%");
            try (java.sql.ResultSet rs = q.executeQuery()) {
                rs.next();
                committed = rs.getLong(1);
            }
        }
        assertThat(committed).as("records committed for %d answered calls", answered.get())
                .isGreaterThanOrEqualTo(answered.get());
    }

    private static String user() {
        return "{\"name\":\"Ada\",\"email\":\"ada-" + UUID.randomUUID() + "@example.com\",\"role\":\"viewer\"}";
    }

    private static String refOf(JsonNode answer) {
        Matcher m = REF.matcher(answer.toString());
        assertThat(m.find()).as("a ref in %s", answer).isTrue();
        return m.group();
    }

    private static Processes.Result warden(String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of(Processes.LAUNCHER.toString()));
        command.addAll(List.of(args));
        return Processes.run(command, env);
    }

    @Test
    void anIncidentOfGatewayAIsShownFromTheSharedStoreWithoutAsData() throws Exception {
        String session = AuthedHttp.initialize(a.url(), Map.of(), "client-a");
        JsonNode answer = AuthedHttp.call(a.url(), Map.of(), session, 7, "no_such_tool", "{}");
        String ref = refOf(answer);

        // Another machine: only the configuration, no data directory of A's.
        Processes.Result shown = warden("incidents", "show", ref, "--config", config.toString(),
                "--data-dir", Files.createTempDirectory("empty").toString());
        assertThat(shown.exitCode()).as(shown.stderr()).isZero();
        assertThat(shown.stdout()).contains("ref:       " + ref).contains("code:      NOT_FOUND");

        Processes.Result listed = warden("incidents", "list", "--config", config.toString(), "--since", "1h");
        assertThat(listed.stdout()).contains(ref);
        assertThat(listed.stdout() + listed.stderr()).doesNotContain(env.get("WARDEN_E2E_PG_PASSWORD"));
    }

    @Test
    void anAuditRecordOfGatewayAIsListedFromGatewayBsSide() throws Exception {
        String sessionA = AuthedHttp.initialize(a.url(), Map.of(), "audited-on-a");
        AuthedHttp.call(a.url(), Map.of(), sessionA, 3, "create_user", user());
        String sessionB = AuthedHttp.initialize(b.url(), Map.of(), "audited-on-b");
        AuthedHttp.call(b.url(), Map.of(), sessionB, 3, "create_user", user());

        // Fail-closed: both answers were sent after their records committed, so no waiting is needed.
        Processes.Result listed = warden("incidents", "audit-log", "--config", config.toString(), "--since", "1h",
                "--tool", "create_user");
        assertThat(listed.exitCode()).as(listed.stderr()).isZero();
        assertThat(listed.stdout()).contains("audited-on-a#").contains("audited-on-b#");
    }

    @Test
    void failClosedACallIsRefusedWithWardensOwnErrorWhenPostgresIsCutOff() throws Exception {
        String session = AuthedHttp.initialize(a.url(), Map.of(), "cut-off");
        assertThat(AuthedHttp.call(a.url(), Map.of(), session, 4, "create_user", user()).has("result")).isTrue();
        relay.cut();
        try {
            JsonNode refused = AuthedHttp.call(a.url(), Map.of(), session, 5, "create_user", user());
            assertThat(refused.toString()).contains("cannot record requests right now");
            assertThat(refused.toString()).doesNotContain("PostgreSQL").doesNotContain("127.0.0.1");
        } finally {
            relay.restore();
        }
        // PostgreSQL back: calls go through again (the refusal's own record is how the gateway learns).
        Instant deadline = Instant.now().plus(PATIENCE);
        int id = 6;
        while (!AuthedHttp.call(a.url(), Map.of(), session, id++, "create_user", user()).has("result")) {
            assertThat(Instant.now()).as("calls accepted again once PostgreSQL answers").isBefore(deadline);
        }
    }
}
