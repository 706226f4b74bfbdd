package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code warden} launcher: its start-up cache, and the server {@code wrap} starts before parsing. */
class LauncherEndToEndTest {

    private static final Path ROOT = Processes.LAUNCHER.getParent();
    private static final Path CACHE = ROOT.resolve("warden-cli/target/warden.aot");

    @TempDir
    Path dir;

    private static int javaFeature(Path java) throws Exception {
        Path release = java.getParent().getParent().resolve("release");
        for (String line : Files.readAllLines(release)) {
            if (line.startsWith("JAVA_VERSION=")) {
                String version = line.substring("JAVA_VERSION=".length()).replace("\"", "");
                return Integer.parseInt(version.split("[.+-]")[0]);
            }
        }
        throw new AssertionError("no JAVA_VERSION in " + release);
    }

    @Test
    void stdoutCarriesOnlyTheProtocolWithTheStartUpCacheAndTheCacheIsMadeWhereTheJdkHasTheFeature()
            throws Exception {
        for (int run = 0; run < 2; run++) { // the first run may make the cache, the second uses it
            Process process = new ProcessBuilder(Processes.LAUNCHER.toString(), "demo", "--data-dir", dir.toString())
                    .redirectInput(ROOT.resolve("warden-cli/src/main/aot/training.jsonl").toFile())
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(process.waitFor(2, TimeUnit.MINUTES)).isTrue();

            List<String> lines = out.lines().toList();
            assertThat(lines).hasSize(13);
            for (String line : lines) {
                assertThat(Json.mapper().readTree(line).path("jsonrpc").asString()).isEqualTo("2.0");
            }
        }
        String key = Files.readString(CACHE.resolveSibling("warden.aot.key")).strip();
        Path java = Path.of(key.substring(0, key.indexOf('|')));
        assertThat(Files.exists(CACHE)).isEqualTo(javaFeature(java) >= 25);
    }

    @Test
    void wrapStopsTheServerItStartedEarlyWhenItsOptionsAreWrong() throws Exception {
        Path pid = dir.resolve("pid");
        // --max-message-bytes wants a number: the server is started before that is found out
        Process process = new ProcessBuilder(Processes.LAUNCHER.toString(), "wrap", "--max-message-bytes", "lots",
                "sh", "-c", "echo $$ > " + pid + "; exec cat").redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        assertThat(process.waitFor(2, TimeUnit.MINUTES)).isTrue();
        assertThat(process.exitValue()).isEqualTo(2);

        assertThat(pid).exists();
        long server = Long.parseLong(Files.readString(pid).strip());
        ProcessHandle.of(server).ifPresent(p -> p.onExit().orTimeout(10, TimeUnit.SECONDS).join());
        assertThat(ProcessHandle.of(server).map(ProcessHandle::isAlive).orElse(false)).isFalse();
    }
}
