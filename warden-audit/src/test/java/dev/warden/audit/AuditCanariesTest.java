package dev.warden.audit;

import static dev.warden.audit.ScriptedServer.isError;
import static dev.warden.audit.ScriptedServer.result;
import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.audit.report.ReportFormat;
import dev.warden.core.json.Json;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/**
 * What a hostile probe provoked, judged from the answer by a harmless canary: a shell's echo put
 * back together, /etc/passwd's content or a file error outside the folder the tool serves, a fetch
 * of the audit's own loopback URL, a database's syntax error. Each vulnerable server is found with
 * its rule; each safe one that merely repeats, refuses or strips the value is not.
 */
class AuditCanariesTest {

    private static final String HOST = "{\"type\":\"object\",\"properties\":{\"host\":{\"type\":\"string\"}},\"required\":[\"host\"]}";
    private static final String PATH = "{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\"}},\"required\":[\"path\"]}";
    private static final String URL = "{\"type\":\"object\",\"properties\":{\"url\":{\"type\":\"string\"}},\"required\":[\"url\"]}";
    private static final String NAME = "{\"type\":\"object\",\"properties\":{\"name\":{\"type\":\"string\"}},\"required\":[\"name\"]}";
    private static final String PASSWD = "root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n";
    private static final String BASE = "/srv/x/corpus/a/b/docs";

    private static Report audit(ScriptedServer server) {
        return Audit.custom().target(server.target()).callTimeout(Duration.ofSeconds(5)).rate(10_000).build().run();
    }

    private static ScriptedServer one(String name, String schema, Function<String, ObjectNode> answer) {
        String property = Json.mapper().readTree(schema).path("required").get(0).asString();
        return new ScriptedServer().tool(name, schema, args -> Optional.of(answer.apply(args.path(property).asString(""))));
    }

    private static ObjectNode text(String text) {
        ObjectNode body = Json.object();
        body.putObject("result").putArray("content").addObject().put("type", "text").put("text", text);
        return body;
    }

    /** What {@code sh -c "ping -c 1 " + host} prints, as far as the echo canaries go: each {@code echo X} run. */
    private static String shell(String value) {
        StringBuilder out = new StringBuilder("PING ok\n");
        int at = value.indexOf("echo ");
        if (at >= 0 && (value.startsWith(";", 0) || value.startsWith("$(") || value.startsWith("`")
                || value.contains("|") || value.contains("&&") || value.contains("\n"))) {
            String rest = value.substring(at + 5);
            int end = 0;
            while (end < rest.length() && " )`#\n".indexOf(rest.charAt(end)) < 0) {
                end++;
            }
            out.append(rest, 0, end).append('\n');
        }
        return out.toString().replace("\"\"", "");
    }

    private static List<Finding> of(Report report, Rule rule) {
        return report.findings().stream().filter(f -> f.rule() == rule).toList();
    }

    @Test
    void a_shell_canary_echoed_back_assembled_is_command_injection() {
        Report report = audit(one("ping", HOST, host -> text(shell(host))));

        assertThat(of(report, Rule.COMMAND_INJECTION)).as(report.findings().toString()).singleElement().satisfies(f -> {
            assertThat(f.tool()).contains("ping");
            assertThat(f.severity()).isEqualTo(Severity.HIGH);
            assertThat(f.rule().cwe()).isEqualTo(78);
            assertThat(f.location()).isEqualTo("/result/content/0/text");
            assertThat(f.message()).startsWith("Confirmed by a shell canary: a shell ran the probe's");
            assertThat(f.evidence()).hasValueSatisfying(e -> assertThat(e.category()).isEqualTo("shell-canary"));
        });
    }

    @Test
    void the_text_and_markdown_reports_say_what_the_canary_proved() {
        Report report = audit(one("ping", HOST, host -> text(shell(host))));

        for (ReportFormat format : List.of(ReportFormat.TEXT, ReportFormat.MARKDOWN)) {
            assertThat(format.render(report)).as(format.name()).contains("WDN-X001", "Confirmed by a shell canary",
                    "its echo came back assembled").doesNotContain("wdnprobe-");
        }
    }

    @Test
    void a_value_repeated_as_sent_or_with_its_quotes_stripped_is_no_injection() {
        Report verbatim = audit(one("ping", HOST, host -> isError("{\"code\":\"BAD_HOST\",\"host\":" + Json.tree(host) + "}")));
        Report stripped = audit(one("ping", HOST, host -> isError("{\"code\":\"BAD_HOST\",\"message\":"
                + Json.tree("unknown host: " + host.replace("\"", "")) + "}")));

        assertThat(of(verbatim, Rule.COMMAND_INJECTION)).as(verbatim.findings().toString()).isEmpty();
        assertThat(of(stripped, Rule.COMMAND_INJECTION)).as(stripped.findings().toString()).isEmpty();
    }

    @Test
    void a_shell_error_the_baseline_does_not_show_is_the_weaker_signal() {
        Report report = audit(one("ping", HOST, host -> host.contains("'")
                ? isError("/bin/sh: 1: Syntax error: Unterminated quoted string") : text("PING ok")));

        assertThat(of(report, Rule.COMMAND_INJECTION)).as(report.findings().toString()).singleElement().satisfies(f -> {
            assertThat(f.message()).contains("Syntax error: Unterminated quoted string", "weaker signal");
            assertThat(f.evidence()).hasValueSatisfying(e -> assertThat(e.category()).isEqualTo("shell-error"));
        });
    }

    @Test
    void a_shell_error_the_baseline_shows_too_is_not_counted() {
        Report report = audit(one("ping", HOST, host -> isError("sh: 1: ping: not found")));

        assertThat(of(report, Rule.COMMAND_INJECTION)).as(report.findings().toString()).isEmpty();
    }

    /** A file server that joins the path to its folder without checking where it lands. */
    private static ObjectNode naiveRead(String path) {
        String resolved;
        try {
            resolved = java.nio.file.Path.of(BASE).resolve(path.startsWith("/") ? path.substring(1) : path)
                    .normalize().toString();
        } catch (RuntimeException e) {
            return isError("{\"code\":\"VALIDATION_ERROR\"}");
        }
        return resolved.equals("/etc/passwd") ? text(PASSWD) : isError("{\"code\":\"NOT_FOUND\"}");
    }

    @Test
    void a_deep_traversal_that_returns_etc_passwd_is_path_traversal_and_the_content_stays_out() {
        Report report = audit(one("read_file", PATH, AuditCanariesTest::naiveRead));

        assertThat(of(report, Rule.PATH_TRAVERSAL)).as(report.findings().toString()).singleElement().satisfies(f -> {
            assertThat(f.tool()).contains("read_file");
            assertThat(f.rule().cwe()).isEqualTo(22);
            assertThat(f.message()).contains("32 levels deep", "/etc/passwd");
        });
        assertThat(report.toString()).doesNotContain("root:x:0:0", "daemon:x");
    }

    private static String afterTheLastDotDot(String path) {
        int at = path.lastIndexOf("../");
        return at < 0 ? path : path.substring(at + 3);
    }

    @Test
    void a_file_error_naming_a_path_outside_the_folder_the_description_names_is_path_traversal() {
        // The server clamps '..' at its corpus folder, above the one it says it serves.
        Report report = audit(one("read_doc", PATH, path -> isError("ENOENT: no such file or directory, open '"
                + "/srv/x/corpus/" + afterTheLastDotDot(path) + "'"))
                .describe("read_doc", "Reads a document under " + BASE + "."));

        assertThat(of(report, Rule.PATH_TRAVERSAL)).as(report.findings().toString()).singleElement().satisfies(f -> {
            assertThat(f.message()).contains("ENOENT", "outside " + BASE, "the tool's description");
            assertThat(f.evidence()).hasValueSatisfying(e -> assertThat(e.category()).isEqualTo("resolved-path"));
        });
        assertThat(of(report, Rule.PATH_TRAVERSAL).getFirst().message()).doesNotContain("/srv/x/corpus/etc");
    }

    @Test
    void a_refusal_naming_the_resolved_path_or_a_missing_file_under_the_folder_is_no_traversal() {
        Report refuses = audit(one("read_doc", PATH, path -> isError("Access denied - path outside allowed directories: "
                + "/etc/passwd not in " + BASE)).describe("read_doc", "Reads a document under " + BASE + "."));
        Report stays = audit(one("read_doc", PATH, path -> isError("ENOENT: no such file or directory, open '"
                + BASE + "/" + path.replace("%2f", "/").replace("../", "") + "'"))
                .describe("read_doc", "Reads a document under " + BASE + "."));

        assertThat(of(refuses, Rule.PATH_TRAVERSAL)).as(refuses.findings().toString()).isEmpty();
        assertThat(of(stays, Rule.PATH_TRAVERSAL)).as(stays.findings().toString()).isEmpty();
    }

    @Test
    void a_url_the_server_fetches_from_the_audits_loopback_listener_is_a_server_side_request() {
        List<String> urls = Collections.synchronizedList(new ArrayList<>());
        HttpClient http = HttpClient.newHttpClient();
        Report report = audit(one("fetch", URL, url -> {
            urls.add(url);
            try {
                HttpResponse<String> got = http.send(HttpRequest.newBuilder(URI.create(url))
                        .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
                return text(got.body());
            } catch (Exception e) {
                return isError("{\"code\":\"UPSTREAM_ERROR\"}");
            }
        }));

        assertThat(of(report, Rule.SERVER_SIDE_REQUEST)).as(report.findings().toString()).singleElement().satisfies(f -> {
            assertThat(f.tool()).contains("fetch");
            assertThat(f.rule().cwe()).isEqualTo(918);
            assertThat(f.location()).isEqualTo("listener");
            assertThat(f.message()).contains("the audit's own listener saw the request");
        });
        // Harmless: every URL the audit gave that could be fetched is on loopback.
        assertThat(urls).filteredOn(u -> u.startsWith("http://")).isNotEmpty()
                .allSatisfy(u -> assertThat(u).startsWith("http://127.0.0.1:"));
    }

    @Test
    void a_server_that_never_fetches_the_url_has_no_server_side_request() {
        Report report = audit(one("fetch", URL, url -> isError("{\"code\":\"BLOCKED\",\"message\":\"loopback refused\"}")));

        assertThat(of(report, Rule.SERVER_SIDE_REQUEST)).isEmpty();
    }

    @Test
    void a_database_syntax_error_on_an_sql_value_is_sql_injection() {
        Report report = audit(one("find_user", NAME, name -> name.contains("'")
                ? isError("SQLITE_ERROR: unrecognized token: \"'\"") : text("[]")));

        assertThat(of(report, Rule.SQL_INJECTION)).as(report.findings().toString()).singleElement().satisfies(f -> {
            assertThat(f.rule().cwe()).isEqualTo(89);
            assertThat(f.message()).startsWith("Confirmed by an SQL canary").contains("SQLite: unrecognized token");
        });
    }

    @Test
    void a_parameterized_query_or_an_error_the_baseline_shares_is_no_sql_injection() {
        Report bound = audit(one("find_user", NAME, name -> isError("{\"code\":\"NOT_FOUND\",\"message\":\"no such user\"}")));
        Report always = audit(one("find_user", NAME, name -> isError("near \"FROM\": syntax error")));

        assertThat(of(bound, Rule.SQL_INJECTION)).isEmpty();
        assertThat(of(always, Rule.SQL_INJECTION)).isEmpty();
    }

    @Test
    void an_always_true_condition_that_changes_the_result_where_an_always_false_one_does_not_is_sql_injection() {
        // Errors swallowed: no signature to read, only what the conditions return.
        Report report = audit(one("find_user", NAME, name -> text(name.contains("'1'='1") ? "[\"alice\",\"bob\"]"
                : name.contains("'") && !name.contains("'1'='2") ? "query failed" : "[]")));

        assertThat(of(report, Rule.SQL_INJECTION)).as(report.findings().toString()).singleElement()
                .satisfies(f -> assertThat(f.message()).contains("always-true condition changed the result"));
    }

    @Test
    void a_result_that_only_repeats_the_value_is_no_boolean_differential() {
        Report report = audit(one("find_user", NAME, name -> text("no user named " + name)));

        assertThat(of(report, Rule.SQL_INJECTION)).as(report.findings().toString()).isEmpty();
    }

    @Test
    void canaries_are_not_sent_to_a_destructive_tool_without_the_flag() {
        ScriptedServer server = new ScriptedServer().tool("delete_host", HOST, args -> Optional.of(text(shell(
                args.path("host").asString("")))));

        Report report = audit(server);

        assertThat(server.calls()).doesNotContain("delete_host");
        assertThat(of(report, Rule.COMMAND_INJECTION)).isEmpty();
    }

}
