package dev.warden.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A stdio application exits when its context closes, whatever state stdin is in. */
class WardenStdioServerTest {

    @TempDir
    Path dir;

    /**
     * The runner fails after the context started, so Boot closes the context; the client still holds
     * stdin open (this test never closes it), so only the context's close can end the process. The
     * generous bound is a hang detector, not a speed requirement.
     */
    @Test
    void aStdioApplicationWhoseStartFailsExitsWhileStdinStaysOpen() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path stderr = dir.resolve("stderr.txt");
        Process process = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                StdioFailingStartMain.class.getName(), "--warden.mcp.stdio.enabled=true",
                "--warden.mcp.incidents.dir=" + dir.resolve("incidents"))
                .redirectError(stderr.toFile()).start();
        try {
            boolean exited = process.waitFor(120, TimeUnit.SECONDS);
            assertThat(exited).as("exited with stdin open; stderr: %s", Files.readString(stderr)).isTrue();
            assertThat(Files.readString(stderr)).contains("migration failed");
        } finally {
            process.destroyForcibly();
        }
    }
}
