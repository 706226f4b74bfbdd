package dev.warden.audit;

import static dev.warden.audit.ScriptedServer.error;
import static dev.warden.audit.ScriptedServer.isError;
import static dev.warden.audit.ScriptedServer.result;
import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/** Every planted leak is reported with its rule, tool and place; the report never holds the leaked value. */
class AuditLeaksTest {

    private static final String SCHEMA = "{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"string\"}},"
            + "\"required\":[\"id\"]}";
    private static final String TRACE = "java.lang.IllegalStateException: lookup failed\n"
            + "\tat com.acme.orders.OrderRepository.find(OrderRepository.java:42)\n"
            + "\tat com.acme.orders.LookupTool.run(LookupTool.java:17)";
    private static final String PATH = "/home/deploy/acme/config/settings.yml";
    private static final String SQL = "ERROR: duplicate key value violates unique constraint \"customer_secrets_pkey\"";
    private static final String AWS_KEY = "AKIAZ3MQ4T5VXW7YB2NC";
    private static final String HOST = "db-primary.prod.acme.internal";
    private static final List<String> PLANTED = List.of(TRACE, "OrderRepository.java:42", PATH, "customer_secrets_pkey",
            AWS_KEY, HOST);

    static ScriptedServer leaky() {
        ObjectNode data = Json.object();
        data.put("detail", "upstream refused key " + AWS_KEY);
        ObjectNode withData = error(-32603, "Internal error");
        ((ObjectNode) withData.get("error")).set("data", data);
        ObjectNode log = Json.object();
        log.put("message", "could not open " + PATH);
        return new ScriptedServer()
                .tool("orders", SCHEMA, args -> Optional.of(isError(TRACE)))
                .tool("files", SCHEMA, args -> Optional.of(error(-32603, "ENOENT: no such file or directory, open '"
                        + PATH + "'")))
                .tool("customers", SCHEMA, args -> Optional.of(isError(SQL)))
                .tool("cloud", SCHEMA, args -> Optional.of(withData))
                .tool("status", SCHEMA, args -> Optional.of(result("{\"content\":[],\"isError\":true,"
                        + "\"structuredContent\":{\"error\":\"connect ECONNREFUSED to " + HOST + ":5432\"}}")))
                .logs(log);
    }

    static Report audit(ScriptedServer server) {
        return Audit.custom().target(server.target()).callTimeout(Duration.ofSeconds(5)).rate(10_000).build().run();
    }

    @Test
    void each_leak_is_reported_with_its_rule_tool_and_json_pointer() {
        Report report = audit(leaky());

        assertThat(report.findings()).anySatisfy(f -> assertFinding(f, Rule.LEAK_STACK_TRACE, "orders",
                "/result/content/0/text"));
        assertThat(report.findings()).anySatisfy(f -> assertFinding(f, Rule.LEAK_PATH, "files", "/error/message"));
        assertThat(report.findings()).anySatisfy(f -> assertFinding(f, Rule.LEAK_DATABASE, "customers",
                "/result/content/0/text"));
        assertThat(report.findings()).anySatisfy(f -> assertFinding(f, Rule.LEAK_SECRET, "cloud",
                "/error/data/detail"));
        assertThat(report.findings()).anySatisfy(f -> assertFinding(f, Rule.LEAK_TOPOLOGY, "status",
                "/result/structuredContent/error"));
        assertThat(report.findings()).anySatisfy(f -> assertFinding(f, Rule.LEAK_PATH, "orders",
                "/params/data/message"));
    }

    @Test
    void the_report_never_holds_a_leaked_value() {
        Report report = audit(leaky());

        assertThat(report.findings()).isNotEmpty();
        String everything = report.toString();
        for (String planted : PLANTED) {
            assertThat(everything).doesNotContain(planted);
        }
        assertThat(report.findings()).filteredOn(f -> f.rule().id().startsWith("WDN-L"))
                .allSatisfy(f -> assertThat(f.evidence()).isPresent());
    }

    @Test
    void one_finding_per_rule_tool_and_place_however_many_probes_found_it() {
        Report report = audit(leaky());

        assertThat(report.findings()).filteredOn(f -> f.rule() == Rule.LEAK_STACK_TRACE
                && f.tool().equals(Optional.of("orders"))).hasSize(1);
    }

    @Test
    void a_path_the_server_lists_to_any_caller_or_one_under_it_is_not_a_leak_when_an_error_names_it() {
        // server-filesystem's way: list_allowed_directories names the root; a refusal names it again.
        ScriptedServer files = new ScriptedServer()
                .tool("list_allowed_directories", "{\"type\":\"object\"}",
                        args -> Optional.of(result("{\"content\":[{\"type\":\"text\",\"text\":"
                                + "\"Allowed directories:\\n/srv/shared/files\"}]}")))
                .tool("read_file", SCHEMA, args -> Optional.of(isError(
                        "Access denied - path outside allowed directories: /srv/shared/files")))
                .tool("read_text_file", SCHEMA, args -> Optional.of(isError(
                        "ENOENT: no such file or directory, open '/srv/shared/files/notes/todo.txt'")))
                .tool("stat_file", SCHEMA, args -> Optional.of(isError("ENOENT: stat '" + PATH + "'")));

        Report report = audit(files);

        assertThat(report.findings()).noneMatch(f -> f.rule() == Rule.LEAK_PATH && f.tool().equals(Optional.of("read_file")));
        assertThat(report.findings()).noneMatch(f -> f.rule() == Rule.LEAK_PATH
                && f.tool().equals(Optional.of("read_text_file")));
        assertThat(report.findings()).anySatisfy(f -> assertFinding(f, Rule.LEAK_PATH, "stat_file", "/result/content/0/text"));
    }

    @Test
    void what_a_hostile_probe_makes_a_server_return_publishes_nothing() {
        // A traversal that reads /etc/passwd must not turn every later leak under /home/deploy into "published".
        String schema = "{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\"}},\"required\":[\"path\"]}";
        ScriptedServer files = new ScriptedServer()
                .tool("read_file", schema, args -> Optional.of(args.path("path").asString("").contains("..")
                        ? result("{\"content\":[{\"type\":\"text\",\"text\":\"deploy:x:1000:1000::/home/deploy/shop:/bin/sh\"}]}")
                        : result("{\"content\":[{\"type\":\"text\",\"text\":\"ok\"}]}")))
                .tool("stat_file", SCHEMA, args -> Optional.of(isError(
                        "ENOENT: stat '/home/deploy/shop/config/db.json'")));

        Report report = audit(files);

        assertThat(report.findings()).anySatisfy(f -> assertFinding(f, Rule.LEAK_PATH, "stat_file", "/result/content/0/text"));
    }

    @Test
    void a_path_built_around_an_over_long_argument_leaks_the_servers_part_not_the_callers() {
        // Node's ENAMETOOLONG names the directory only an over-long argument makes it show.
        String schema = "{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\"}},\"required\":[\"path\"]}";
        ScriptedServer files = new ScriptedServer().tool("stat", schema, args -> {
            String path = args.path("path").asString("");
            return Optional.of(path.length() < 4096 ? isError("no such file")
                    : isError("ENAMETOOLONG: name too long, open '/srv/app/data/" + path + "'"));
        });

        Report report = audit(files);

        assertThat(report.findings()).filteredOn(f -> f.rule() == Rule.LEAK_PATH).singleElement().satisfies(f -> {
            assertThat(f.probe()).contains("KiB long");
            assertThat(f.evidence().orElseThrow().length()).isEqualTo("/srv/app/data/".length());
        });
    }

    private static void assertFinding(Finding f, Rule rule, String tool, String location) {
        assertThat(f.rule()).isEqualTo(rule);
        assertThat(f.tool()).contains(tool);
        assertThat(f.location()).isEqualTo(location);
        assertThat(f.evidence()).isPresent();
    }
}
