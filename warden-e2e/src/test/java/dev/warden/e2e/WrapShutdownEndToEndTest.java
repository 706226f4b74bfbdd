package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code warden wrap} stopped by SIGTERM stops its server, even one that never reads its stdin. */
class WrapShutdownEndToEndTest {

    @Test
    void sigtermStopsAServerThatNeverReadsItsStdin() throws Exception {
        Path dataDir = Files.createTempDirectory("warden-wrap-shutdown");
        List<String> command = new ArrayList<>(List.of(Processes.LAUNCHER.toString(), "wrap", "--data-dir",
                dataDir.toString(), "--", "sleep", "1000"));
        List<ProcessHandle> servers;
        try (LinePeer peer = new LinePeer(command)) {
            servers = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
                List<ProcessHandle> found;
                while ((found = peer.descendants().stream()
                        .filter(p -> p.info().command().orElse("").endsWith("sleep")).toList()).isEmpty()) {
                    Thread.sleep(20); // until the server is running
                }
                return found;
            });

            peer.destroy();
        }

        try {
            assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
                while (servers.stream().anyMatch(ProcessHandle::isAlive)) {
                    Thread.sleep(20); // until the server is gone: a hang here is the orphan
                }
            });
        } finally {
            servers.forEach(ProcessHandle::destroyForcibly);
        }
    }
}
