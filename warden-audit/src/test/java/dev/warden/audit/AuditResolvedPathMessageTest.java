package dev.warden.audit;

import static dev.warden.audit.ScriptedServer.isError;
import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.audit.report.ReportFormat;
import dev.warden.core.json.Json;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/** A folder only the server's own answer named (a home directory) never reaches a published report. */
class AuditResolvedPathMessageTest {

    private static final String HOME = "/srv/tenant-7/docs";

    @Test
    void a_traversal_outside_a_folder_only_the_baseline_named_keeps_that_folder_out_of_every_format() {
        String schema = "{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\"}},\"required\":[\"path\"]}";
        ScriptedServer server = new ScriptedServer().tool("read_doc", schema, args -> {
            String path = args.path("path").asString("");
            if (!path.contains("..")) {
                ObjectNode ok = Json.object();
                ok.putObject("result").putArray("content").addObject().put("type", "text")
                        .put("text", "Read " + HOME + "/" + path);
                return Optional.of(ok);
            }
            return Optional.of(isError("ENOENT: no such file or directory, open '/srv/tenant-7/"
                    + path.substring(path.lastIndexOf("../") + 3) + "'"));
        });

        Report report = Audit.custom().target(server.target()).callTimeout(Duration.ofSeconds(5)).rate(10_000)
                .build().run();

        assertThat(report.findings()).filteredOn(f -> f.rule() == Rule.PATH_TRAVERSAL).as(report.findings().toString())
                .singleElement().satisfies(f -> assertThat(f.message()).contains("the folder its baseline answer names"));
        for (ReportFormat format : ReportFormat.values()) {
            assertThat(format.render(report)).as(format.name()).doesNotContain(HOME, "tenant-7");
        }
    }
}
