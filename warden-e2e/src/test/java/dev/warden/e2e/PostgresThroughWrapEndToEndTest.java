package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import dev.warden.testkit.LocalPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;

/**
 * {@code @modelcontextprotocol/server-postgres} behind {@code warden wrap}, against a real
 * PostgreSQL (started by this JVM, {@link LocalPostgres}; the database has a {@code customers}
 * table with a unique {@code email}). A failing query reaches the client without table, column, constraint or SQL text, and with the code of its kind.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PostgresThroughWrapEndToEndTest {

    static final String URL = LocalPostgres.shared().url();
    LinePeer peer;
    Path dataDir;
    int nextId = 10;

    @BeforeAll
    void start() throws Exception {
        dataDir = Files.createTempDirectory("warden-pg-e2e");
        peer = new LinePeer(List.of(Processes.LAUNCHER.toString(), "wrap", "--data-dir", dataDir.toString(), "--",
                Processes.NODE, Processes.NODE_DIR.resolve("node_modules/@modelcontextprotocol/server-postgres/dist/index.js")
                        .toString(), URL));
        String init = peer.call(1, "initialize", "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
                + "\"clientInfo\":{\"name\":\"e2e\",\"version\":\"1\"}}", Duration.ofSeconds(60));
        assertThat(init).contains("\"result\"");
        peer.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
    }

    @AfterAll
    void stop() throws Exception {
        if (peer != null) {
            peer.close();
        }
    }

    private String query(String sql) throws Exception {
        return peer.call(nextId++, "tools/call", "{\"name\":\"query\",\"arguments\":{\"sql\":" + Json.mapper()
                .writeValueAsString(sql) + "}}", Duration.ofSeconds(60));
    }

    /**
     * What the caller sent comes back to it (issue 14): the table, column or word its own SQL named
     * is in the message that says what is wrong with it, with the code that says who fixes it.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "SELECT card_number FROM secret_orders     | NOT_FOUND         | relation \"secret_orders\" does not exist",
        "SELECT ssn FROM customers                 | NOT_FOUND         | column \"ssn\" does not exist",
        "SELEC email FROM customers                | VALIDATION_ERROR  | syntax error at or near \"SELEC\"",
        "INSERT INTO customers VALUES (2, 'x@y.z') | PERMISSION_DENIED | cannot execute INSERT in a read-only transaction",
    })
    void aFailingQueryReachesTheClientWithWhatTheCallerWroteAndTheRightCode(String sql, String code, String message)
            throws Exception {
        String line = query(sql.strip());
        JsonNode answer = Json.mapper().readTree(line);
        assertThat(answer.at("/result/isError").asBoolean()).as(line).isTrue();
        JsonNode error = Json.mapper().readTree(answer.at("/result/content/0/text").asString()).get("error");
        assertThat(error.get("code").asString()).isEqualTo(code);
        assertThat(error.get("message").asString()).contains(message.strip());
        Processes.Result shown = Processes.run(List.of(Processes.LAUNCHER.toString(), "incidents", "show",
                error.get("ref").asString(), "--data-dir", dataDir.toString()));
        assertThat(shown.stdout()).as("the incident keeps the original").contains(message.strip());
    }

    @Test
    void aNameTheCallerDidNotSendStaysWithTheServer() throws Exception {
        // The hint names a column of the table that the caller never wrote: it is the server's.
        String line = query("SELECT emial FROM customers");
        JsonNode error = Json.mapper().readTree(Json.mapper().readTree(line).at("/result/content/0/text").asString())
                .get("error");
        assertThat(error.get("message").asString()).contains("column \"emial\" does not exist");
        assertThat(line).doesNotContain("\"email\"").doesNotContain("customers.email");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"SELECT email FROM customers WHERE id = 1"})
    void aGoodQueryAnswersAsWithoutWarden(String sql) throws Exception {
        JsonNode answer = Json.mapper().readTree(query(sql));
        assertThat(answer.at("/result/isError").asBoolean(false)).isFalse();
        assertThat(answer.at("/result/content/0/text").asString()).contains("ada@example.com");
    }
}
