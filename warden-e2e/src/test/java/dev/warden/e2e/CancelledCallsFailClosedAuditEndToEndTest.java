package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import dev.warden.testkit.LocalPostgres;
import java.net.URI;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * One {@code warden gateway} with {@code audit: { failClosed: true }} writing its audit log to the
 * real PostgreSQL of scripts/test-postgres (each record waits for its commit), in front of
 * server-everything over stdio, with a rate per client (so every call runs on a thread of its
 * own, which a client's cancel interrupts). Clients that cancel calls (the 2026-07-28 workload's
 * aborted stream, the TypeScript SDK's notifications/cancelled) get the records of those calls
 * written as CANCELLED, and neither they nor the clients after them are refused as unrecordable:
 * a cancel stops its call's work, it is not the audit log failing.
 */
class CancelledCallsFailClosedAuditEndToEndTest {

    static final String URL = LocalPostgres.shared().url();
    static final String SCHEMA = "e2e_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    static URI pg;
    static HttpGateway gateway;

    @BeforeAll
    static void start() throws Exception {
        pg = URI.create(URL);
        String[] user = pg.getUserInfo().split(":", 2);
        gateway = HttpGateway.start("""
                http: { port: 0 }
                rateLimit: { perClient: 600/m }
                audit: { failClosed: true }
                postgres: { url: "postgresql://%s:${WARDEN_E2E_PG_PASSWORD}@%s:%d%s", schema: %s }
                upstreams:
                  everything:
                    command: [%s, %s, stdio]
                """.formatted(user[0], pg.getHost(), pg.getPort() < 0 ? 5432 : pg.getPort(), pg.getPath(), SCHEMA,
                Processes.NODE, WardenClientWithServerEverythingTest.SERVER), 1, Map.of("WARDEN_E2E_PG_PASSWORD", user[1]));
    }

    @AfterAll
    static void stop() throws Exception {
        if (gateway != null) {
            gateway.stop();
        }
        if (pg != null) {
            try (Connection c = database(); Statement s = c.createStatement()) {
                s.execute("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE");
            }
        }
    }

    @Test
    void clientsThatCancelCallsHaveThemRecordedAndNoClientIsRefusedAsUnrecordable() throws Exception {
        JsonNode stateless = workload("stateless-workload.mjs");
        JsonNode session = workload("session-workload.mjs");
        JsonNode after = workload("stateless-workload.mjs");

        assertThat(stateless.path("ok").asBoolean()).as(stateless.toString()).isTrue();
        assertThat(session.path("steps")).as(session.toString()).allSatisfy(step ->
                assertThat(step.path("ok").asBoolean()).as(step.toString()).isTrue());
        assertThat(after.path("ok").asBoolean()).as(after.toString()).isTrue();
        Map<String, Integer> outcomes = outcomes();
        System.out.printf("E2E: audit records in PostgreSQL by outcome (code): %s%n", outcomes);
        assertThat(outcomes).as("the cancelled calls' records").containsKey("CANCELLED");
        assertThat(outcomes).as("calls refused as unrecordable").doesNotContainKey("ERROR BLOCKED");
    }

    private static JsonNode workload(String script) throws Exception {
        Processes.Result run = Processes.run(Processes.node(script, gateway.url()), Map.of());
        assertThat(run.exitCode()).as(run.stderr()).isZero();
        return Json.mapper().readTree(run.stdout());
    }

    private static Map<String, Integer> outcomes() throws Exception {
        Map<String, Integer> counts = new TreeMap<>();
        try (Connection c = database(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT outcome || coalesce(' ' || code, ''), count(*) FROM " + SCHEMA
                     + ".warden_audit GROUP BY 1")) {
            while (rs.next()) {
                counts.put(rs.getString(1), rs.getInt(2));
            }
        }
        return counts;
    }

    private static Connection database() throws Exception {
        String[] user = pg.getUserInfo().split(":", 2);
        return DriverManager.getConnection("jdbc:postgresql://" + pg.getHost() + ":"
                + (pg.getPort() < 0 ? 5432 : pg.getPort()) + pg.getPath(), user[0], user[1]);
    }
}
