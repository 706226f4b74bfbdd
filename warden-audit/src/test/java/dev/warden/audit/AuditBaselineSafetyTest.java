package dev.warden.audit;

import static dev.warden.audit.ScriptedServer.result;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Without {@code --allow-destructive}, no value the audit takes from a server's own words does
 * harm: a description's "e.g. rm -rf build" is an example of a command, not a harmless value, and
 * an audit that sent it deleted a folder.
 */
class AuditBaselineSafetyTest {

    private static String schema(String property, String description) {
        return "{\"type\":\"object\",\"properties\":{\"" + property + "\":{\"type\":\"string\",\"description\":\""
                + description + "\"}},\"required\":[\"" + property + "\"]}";
    }

    @Test
    void values_from_descriptions_that_are_commands_sql_urls_or_paths_are_never_sent() {
        List<String> got = Collections.synchronizedList(new ArrayList<>());
        ScriptedServer server = new ScriptedServer();
        for (String[] tool : new String[][] {
                {"bash", "command", "The shell command to run, e.g. rm -rf build"},
                {"query", "sql", "SQL statement, for example DELETE FROM logs"},
                {"fetch", "url", "The page, e.g. http://169.254.169.254/latest"},
                {"read_key", "path", "The key file, e.g. ~/.ssh/id_rsa"},
                {"terminal", "input", "What to type, e.g. shutdown now"},
                {"lookup", "target", "Available targets: http://169.254.169.254/latest, /etc/shadow, rm -rf build"}}) {
            server.tool(tool[0], schema(tool[1], tool[2]), args -> {
                args.properties().forEach(e -> got.add(e.getValue().toString()));
                return Optional.of(result("{\"content\":[{\"type\":\"text\",\"text\":\"ok\"}]}"));
            });
        }

        Audit.custom().target(server.target()).callTimeout(Duration.ofSeconds(5)).rate(10_000).build().run();

        assertThat(server.calls()).contains("bash", "query", "fetch", "read_key", "terminal", "lookup");
        assertThat(got).isNotEmpty().noneSatisfy(v -> assertThat(v).containsAnyOf("rm -rf", "DELETE FROM",
                "169.254.169.254", ".ssh", "shutdown", "/etc/shadow"));
    }
}
