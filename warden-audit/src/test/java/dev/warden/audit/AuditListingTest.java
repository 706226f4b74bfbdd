package dev.warden.audit;

import static dev.warden.audit.ScriptedServer.isError;
import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.audit.report.FailOn;
import dev.warden.audit.report.ReportFormat;
import dev.warden.core.json.Json;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What a server lists cannot make the audit unbounded or pass it unprobed (issue 30, finding 10):
 * the listing is read within bounds (pages, tools, bytes), a pagination loop is stopped and reported,
 * probes are planned no further than the budget reaches, and a server no tool of which was probed
 * is not graded: its grade is "incomplete" and {@code --fail-on} fails it at every level.
 */
class AuditListingTest {

    private static final String SCHEMA = "{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\","
            + "\"maxLength\":16}},\"required\":[\"q\"]}";

    private static Audit.Builder audit(ScriptedServer server) {
        return Audit.custom().target(server.target()).callTimeout(Duration.ofSeconds(5)).rate(10_000);
    }

    /** {@code []} and a cursor never given before, for ever. */
    private static ScriptedServer pagingForEver() {
        AtomicInteger page = new AtomicInteger();
        return new ScriptedServer().pages(cursor -> {
            ObjectNode result = Json.object();
            result.putArray("tools");
            result.put("nextCursor", "page-" + page.incrementAndGet());
            return result;
        });
    }

    private static ScriptedServer listing(int tools) {
        ScriptedServer server = new ScriptedServer();
        for (int i = 0; i < tools; i++) {
            server.tool("lookup_" + i, SCHEMA, args -> Optional.of(isError("{\"code\":\"NOT_FOUND\"}")));
        }
        return server;
    }

    private static JsonNode json(Report report) {
        return Json.mapper().readTree(ReportFormat.JSON.render(report));
    }

    @Test
    void a_listing_that_pages_for_ever_is_stopped_and_reported_as_a_pagination_loop() {
        ScriptedServer server = pagingForEver();

        Report report = audit(server).build().run();

        assertThat(server.methods()).filteredOn("tools/list"::equals).hasSizeLessThanOrEqualTo(5);
        assertThat(report.findings()).anySatisfy(f -> {
            assertThat(f.rule().id()).isEqualTo("WDN-S009");
            assertThat(f.tool()).isEmpty();
            assertThat(f.message()).contains("empty", "cursor");
        });
    }

    @Test
    void a_cursor_given_again_is_a_pagination_loop() {
        ScriptedServer server = new ScriptedServer().pages(cursor -> {
            ObjectNode result = Json.object();
            result.putArray("tools").addObject().put("name", "lookup").set("inputSchema", Json.mapper().readTree(SCHEMA));
            result.put("nextCursor", "the-same-cursor");
            return result;
        });

        Report report = audit(server).build().run();

        assertThat(server.methods()).filteredOn("tools/list"::equals).hasSize(2);
        assertThat(report.findings()).anySatisfy(f -> {
            assertThat(f.rule().id()).isEqualTo("WDN-S009");
            assertThat(f.message()).contains("given before");
        });
    }

    @Test
    void a_server_that_pages_for_ever_is_not_graded_and_fails_the_gate_at_every_level() {
        Report report = audit(pagingForEver()).build().run();

        JsonNode grade = json(report).get("grade");
        assertThat(grade.get("letter").asString()).isEqualTo("incomplete");
        assertThat(grade.has("score")).isFalse();
        assertThat(grade.get("reason").asString()).contains("no tool was probed", "listing");
        for (FailOn level : FailOn.values()) {
            assertThat(level.exitCode(report)).as(level.name()).isEqualTo(3);
        }
    }

    @Test
    void every_report_format_says_the_audit_is_incomplete_and_shows_the_loop() {
        Report report = audit(pagingForEver()).build().run();

        for (ReportFormat format : ReportFormat.values()) {
            assertThat(format.render(report)).as(format.name()).containsIgnoringCase("incomplete")
                    .contains("WDN-S009", "no tool was probed").doesNotContain("A (100/100)");
        }
    }

    @Test
    void a_server_listing_50000_tools_is_cut_at_the_bound_and_the_report_says_so() {
        Report report = audit(listing(50_000)).budget(40).build().run();

        assertThat(report.findings()).anySatisfy(f -> {
            assertThat(f.rule().id()).isEqualTo("WDN-S010");
            assertThat(f.message()).contains("1000");
        });
        JsonNode coverage = json(report).get("coverage");
        assertThat(coverage.get("toolsListed").asInt()).isEqualTo(1_000);
        assertThat(coverage.get("listing").asString()).isEqualTo("cut");
    }

    @Test
    void a_listing_of_a_new_tool_on_every_page_for_ever_is_cut_at_100_pages() {
        AtomicInteger page = new AtomicInteger();
        ScriptedServer server = new ScriptedServer().pages(cursor -> {
            int n = page.incrementAndGet();
            ObjectNode result = Json.object();
            result.putArray("tools").addObject().put("name", "lookup_" + n).set("inputSchema", Json.mapper().readTree(SCHEMA));
            result.put("nextCursor", "page-" + n);
            return result;
        });

        Report report = audit(server).build().run();

        assertThat(server.methods()).filteredOn("tools/list"::equals).hasSize(100);
        assertThat(report.findings()).anySatisfy(f -> {
            assertThat(f.rule().id()).isEqualTo("WDN-S010");
            assertThat(f.message()).contains("more than 100 pages");
        });
    }

    @Test
    void a_listing_is_cut_at_16_mib_of_definitions() {
        ScriptedServer server = new ScriptedServer();
        String description = "d".repeat(1024 * 1024);
        server.pages(cursor -> {
            ObjectNode result = Json.object();
            var tools = result.putArray("tools");
            for (int i = 0; i < 20; i++) {
                tools.addObject().put("name", "lookup_" + i).put("description", description)
                        .set("inputSchema", Json.mapper().readTree(SCHEMA));
            }
            return result;
        });

        Report report = audit(server).budget(30).build().run();

        assertThat(report.findings()).anySatisfy(f -> {
            assertThat(f.rule().id()).isEqualTo("WDN-S010");
            assertThat(f.message()).contains("16 MiB", "the first 15 tools");
        });
    }

    /** The plan is what a run would send: no longer than the budget, however many tools are listed. */
    @Test
    void a_server_listing_5000_tools_is_planned_no_further_than_the_budget() {
        List<String> plan = audit(listing(5_000)).budget(100).build().plan();

        assertThat(plan).filteredOn(line -> line.startsWith("tools/call ")).hasSizeLessThanOrEqualTo(100);
    }

    @Test
    void a_server_the_budget_spends_before_any_tool_is_probed_is_not_graded() {
        Report report = audit(listing(3)).budget(3).build().run();

        JsonNode grade = json(report).get("grade");
        assertThat(grade.get("letter").asString()).isEqualTo("incomplete");
        assertThat(grade.get("reason").asString()).contains("budget");
        assertThat(FailOn.HIGH.exitCode(report)).isEqualTo(3);
    }

    @Test
    void a_server_whose_tools_all_may_change_something_is_not_graded_without_allow_destructive() {
        ScriptedServer server = new ScriptedServer()
                .tool("delete_file", SCHEMA, args -> Optional.of(isError("{\"code\":\"NOT_FOUND\"}")));

        Report report = audit(server).build().run();

        assertThat(json(report).get("grade").get("reason").asString()).contains("--allow-destructive");
        assertThat(FailOn.MEDIUM.exitCode(report)).isEqualTo(3);
    }

    @Test
    void partial_coverage_is_graded_on_what_was_probed_and_the_report_says_how_much() {
        Report report = audit(listing(20)).budget(40).build().run();

        JsonNode doc = json(report);
        assertThat(doc.get("grade").get("letter").asString()).isIn("A", "B", "C", "D", "F");
        assertThat(doc.get("coverage").get("toolsListed").asInt()).isEqualTo(20);
        assertThat(doc.get("coverage").get("toolsProbed").asInt()).isBetween(1, 19);
        assertThat(doc.get("coverage").get("partial").asBoolean()).isTrue();
        assertThat(ReportFormat.TEXT.render(report)).contains("of 20 tools probed");
        assertThat(FailOn.HIGH.exitCode(report)).isEqualTo(FailOn.OK);
    }

    @Test
    void a_server_listing_no_tool_is_graded_complete() {
        Report report = audit(new ScriptedServer()).build().run();

        JsonNode doc = json(report);
        assertThat(doc.get("grade").get("letter").asString()).isIn("A", "B", "C", "D", "F");
        assertThat(doc.get("coverage").get("partial").asBoolean()).isFalse();
    }
}
