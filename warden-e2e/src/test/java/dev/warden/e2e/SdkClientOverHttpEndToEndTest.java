package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The same scenarios as {@link SdkClientEndToEndTest}, with the TypeScript SDK's
 * {@code StreamableHTTPClientTransport} against {@code ./warden demo --http 0}.
 */
class SdkClientOverHttpEndToEndTest extends SdkClientEndToEndTest {

    private Process server;

    @Override
    String runScenarios(Path dataDir) throws Exception {
        server = new ProcessBuilder(List.of(Processes.LAUNCHER.toString(), "demo", "--http", "0", "--data-dir",
                dataDir.toString())).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
        String line = out.readLine(); // "warden demo: serving the demo at http://127.0.0.1:PORT/mcp"
        assertThat(line).as("the server's first line").isNotNull().contains("http://127.0.0.1:");
        String url = line.substring(line.indexOf("http://"));
        Processes.Result result = Processes.run(Processes.node("sdk-client.mjs", "--http", url));
        assertThat(result.exitCode()).as("client stderr: %s", result.stderr()).isZero();
        return result.stdout();
    }

    @Override
    boolean seesServerStderr() {
        return false;
    }

    @Test
    void theClientGotASessionAndEndedIt() {
        assertThat(received.get("sessionId").asString()).hasSizeGreaterThanOrEqualTo(32);
    }

    @AfterAll
    void stopServer() throws Exception {
        if (server != null) {
            server.destroy();
            if (!server.waitFor(10, TimeUnit.SECONDS)) {
                server.destroyForcibly();
            }
        }
    }
}
