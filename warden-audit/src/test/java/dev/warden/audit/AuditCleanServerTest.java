package dev.warden.audit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.incident.IncidentSink;
import dev.warden.core.transport.InMemoryTransport;
import dev.warden.server.McpServer;
import dev.warden.server.ToolResult;
import dev.warden.server.ToolSpec;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A server built with Warden's own SDK, whose tools fail with the very leaks of the leaky server:
 * its error boundary lets none through, so the audit finds no leak and no wrong shape.
 */
class AuditCleanServerTest {

    private static final String SCHEMA = "{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"string\"}},"
            + "\"required\":[\"id\"]}";
    /** Valid arguments ask for no wait; the cancellation probe asks for the most, and cancels. */
    private static final String WAIT = "{\"type\":\"object\",\"properties\":{\"seconds\":{\"type\":\"integer\","
            + "\"minimum\":0,\"maximum\":30}},\"required\":[\"seconds\"]}";

    private static McpServer server() {
        return McpServer.builder("clean", "1.0.0")
                .incidents(IncidentSink.all())
                .tool(ToolSpec.builder("orders").inputSchema(SCHEMA).handler(call -> {
                    throw new IllegalStateException("lookup failed in /home/deploy/acme/orders.db with key "
                            + "AKIAZ3MQ4T5VXW7YB2NC at db-primary.prod.acme.internal");
                }).build())
                .tool(ToolSpec.builder("customers").inputSchema(SCHEMA).handler(call -> {
                    throw new SQLException("ERROR: duplicate key value violates unique constraint "
                            + "\"customer_secrets_pkey\"", "23505");
                }).build())
                .tool(ToolSpec.builder("echo").inputSchema(SCHEMA)
                        .handler(call -> ToolResult.text("found " + call.arguments().path("id").asString(""))).build())
                .tool(ToolSpec.builder("wait").description("Waits as long as asked").inputSchema(WAIT).handler(call -> {
                    Thread.sleep(TimeUnit.SECONDS.toMillis(call.arguments().path("seconds").asLong(0)));
                    return ToolResult.text("done");
                }).build())
                .build();
    }

    @Test
    void a_server_with_warden_s_error_boundary_leaks_nothing_and_shapes_every_failure_right() {
        McpServer server = server();
        Target target = Target.of("warden sdk server", () -> {
            InMemoryTransport.Pair pair = InMemoryTransport.pair();
            server.connect(pair.right());
            return pair.left();
        });

        Report report = Audit.custom().target(target).callTimeout(Duration.ofSeconds(2)).rate(10_000).build().run();

        assertThat(report.findings()).as(report.findings().toString()).extracting(Finding::rule).doesNotContain(Rule.LEAK_STACK_TRACE,
                Rule.LEAK_SECRET, Rule.LEAK_PATH, Rule.LEAK_DATABASE, Rule.LEAK_TOPOLOGY, Rule.LEAK_INJECTION,
                Rule.TOOL_ERROR_AS_PROTOCOL_ERROR, Rule.PROTOCOL_ERROR_AS_TOOL_ERROR, Rule.NO_MACHINE_CODE,
                Rule.LEGACY_ERROR_CODE, Rule.UNANSWERED, Rule.WORKS_AFTER_CANCEL);
        assertThat(report.server()).contains(new Report.ServerInfo("clean", "1.0.0"));
    }
}
