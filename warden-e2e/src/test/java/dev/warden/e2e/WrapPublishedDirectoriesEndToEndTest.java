package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * {@code warden wrap -- node @modelcontextprotocol/server-filesystem DIR}: the directory the user put
 * on the server's command line is no secret to the caller. The server's refusal of a path outside it
 * ("Access denied - path outside allowed directories: /etc/hostname not in DIR") keeps DIR, which is
 * what the model needs to choose a path that works.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class WrapPublishedDirectoriesEndToEndTest {

    private Path allowed;
    private LinePeer peer;

    @BeforeAll
    void start() throws Exception {
        Path work = Files.createTempDirectory("warden-published");
        allowed = Files.createDirectories(work.resolve("allowed"));
        peer = new LinePeer(List.of(Processes.LAUNCHER.toString(), "wrap", "--data-dir",
                work.resolve("data").toString(), "--", Processes.NODE,
                Processes.NODE_DIR.resolve("node_modules/@modelcontextprotocol/server-filesystem/dist/index.js")
                        .toString(), allowed.toString()));
        peer.call(1, "initialize", "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
                + "\"clientInfo\":{\"name\":\"e2e\",\"version\":\"1\"}}", WrapLeaksEndToEndTest.GUARD);
        peer.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
        peer.call(2, "tools/list", "{}", WrapLeaksEndToEndTest.GUARD);
    }

    @AfterAll
    void stop() throws Exception {
        peer.close();
    }

    @Test
    void aRefusedPathKeepsTheAllowedDirectoryTheUserConfigured() throws Exception {
        String line = peer.call(3, "tools/call", "{\"name\":\"read_text_file\",\"arguments\":{\"path\":\"/etc/hostname\"}}",
                WrapLeaksEndToEndTest.GUARD);
        String text = Json.mapper().readTree(line).at("/result/content/0/text").asString();
        assertThat(text).contains("/etc/hostname not in " + allowed.toRealPath()).doesNotContain("[redacted:path]");
    }
}
