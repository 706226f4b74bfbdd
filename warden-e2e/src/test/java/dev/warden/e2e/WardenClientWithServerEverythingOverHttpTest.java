package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.client.McpClient;
import dev.warden.core.transport.Transport;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;

/** {@link WardenClientWithServerEverythingTest} over Streamable HTTP ({@code server-everything streamableHttp}). */
class WardenClientWithServerEverythingOverHttpTest extends WardenClientWithServerEverythingTest {

    private Process server;

    @Override
    Supplier<Transport> connector() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        ProcessBuilder builder = new ProcessBuilder(List.of(Processes.NODE, SERVER, "streamableHttp"))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD);
        builder.environment().put("PORT", Integer.toString(port));
        server = builder.start();
        BufferedReader err = new BufferedReader(new InputStreamReader(server.getErrorStream(), StandardCharsets.UTF_8));
        String line;
        do {
            line = err.readLine();
        } while (line != null && !line.contains("listening on port"));
        assertThat(line).as("server-everything started").isNotNull();
        Thread.ofVirtual().start(() -> err.lines().forEach(l -> { })); // keep its stderr drained
        return McpClient.http(URI.create("http://localhost:" + port + "/mcp"));
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
