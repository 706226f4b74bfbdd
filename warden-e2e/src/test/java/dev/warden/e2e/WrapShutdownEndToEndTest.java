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
        // The launcher's first run after a build prepares its start-up cache in the foreground: done
        // here first, so that the signal below reaches the wrap JVM, not the preparation.
        assertTimeoutPreemptively(Duration.ofSeconds(180), () -> {
            Process version = new ProcessBuilder(Processes.LAUNCHER.toString(), "--version")
                    .redirectErrorStream(true).start();
            version.getInputStream().readAllBytes();
            return version.waitFor();
        });
        Path dataDir = Files.createTempDirectory("warden-wrap-shutdown");
        List<String> command = new ArrayList<>(List.of(Processes.LAUNCHER.toString(), "wrap", "--data-dir",
                dataDir.toString(), "--", "sleep", "1000"));
        List<ProcessHandle> servers;
        Path wrapErr;
        try (LinePeer peer = new LinePeer(command)) {
            wrapErr = peer.stderr;
            servers = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
                List<ProcessHandle> found;
                while ((found = peer.descendants().stream()
                        .filter(p -> p.info().command().orElse("").endsWith("sleep")).toList()).isEmpty()) {
                    Thread.sleep(20); // until the server is running
                }
                return found;
            });
            // Answered by wrap itself: it is serving (the launcher starts the server before the JVM,
            // and a SIGTERM before the JVM runs Warden's code is not what this is about).
            assertThat(peer.call(1, "ping", "{}", Duration.ofSeconds(60))).contains("\"result\"");

            assertThat(peer.destroy()).as("warden wrap needed a SIGKILL after its SIGTERM").isFalse();
        }

        try {
            assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
                while (servers.stream().anyMatch(WrapShutdownEndToEndTest::running)) {
                    Thread.sleep(20); // until the server is gone: a hang here is the orphan
                }
            }, () -> "still running: " + servers.stream().map(WrapShutdownEndToEndTest::stat).toList()
                    + "; wrap's stderr: " + stderrOf(wrapErr));
        } finally {
            servers.forEach(ProcessHandle::destroyForcibly);
        }
    }

    private static String stat(ProcessHandle process) {
        try {
            return Files.readString(Path.of("/proc", Long.toString(process.pid()), "stat")).strip();
        } catch (java.io.IOException e) {
            return process.pid() + " gone";
        }
    }

    private static String stderrOf(Path file) {
        try {
            return Files.readString(file);
        } catch (java.io.IOException e) {
            return "unreadable";
        }
    }

    /** Alive and not a zombie (a process killed whose parent is gone waits there until init reaps it). */
    private static boolean running(ProcessHandle process) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(process.pid()), "stat"));
            char state = stat.substring(stat.lastIndexOf(')') + 2).charAt(0);
            return state != 'Z' && state != 'X';
        } catch (java.io.IOException e) {
            return false; // no such process
        }
    }
}
