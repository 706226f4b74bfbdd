package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The {@code warden} launcher: its start-up cache, the server {@code wrap} starts before parsing,
 * and one build when several launchers start on a fresh clone.
 */
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
        // the key's first line names the JDK, the next the options the cache was trained with
        Path java = Path.of(Files.readAllLines(CACHE.resolveSibling("warden.aot.key")).getFirst());
        assertThat(Files.exists(CACHE)).isEqualTo(javaFeature(java) >= 25);
    }

    /**
     * The gateway's cache is made on its first start and the JVM then maps it: the launcher gives
     * the JVM the gateway's own cache, and with {@code AOTMode=on} a JVM that cannot use the cache
     * it is given refuses to start, so a gateway that serves under it has used that cache.
     */
    @Test
    void theGatewayIsMadeItsOwnStartUpCacheAndStartsOnIt() throws Exception {
        HttpGateway first = HttpGateway.inFrontOfServerEverything();
        first.stop();
        Path key = CACHE.resolveSibling("warden-gateway.aot.key");
        Path java = Path.of(Files.readAllLines(key).getFirst());
        boolean feature = javaFeature(java) >= 25;
        assertThat(Files.exists(CACHE.resolveSibling("warden-gateway.aot"))).isEqualTo(feature);
        if (!feature) {
            return;
        }

        HttpGateway onCache = HttpGateway.inFrontOfServerEverything(Map.of("JAVA_TOOL_OPTIONS", "-XX:AOTMode=on"));
        try {
            // the launcher execs the JVM: its command line names the cache it was given
            String commandLine = Files.readString(Path.of("/proc/" + onCache.peer().pid() + "/cmdline"));
            assertThat(commandLine.split("\0")).anyMatch(
                    a -> a.startsWith("-XX:AOTCache=") && a.endsWith("/warden-cli/target/warden-gateway.aot"));
            String session = AuthedHttp.initialize(onCache.url(), Map.of(), "cache-check");
            JsonNode echo = AuthedHttp.call(onCache.url(), Map.of(), session, 1, "echo", "{\"message\":\"on the cache\"}");
            assertThat(echo.at("/result/content/0/text").asString()).contains("on the cache");
        } finally {
            onCache.stop();
        }
    }

    @Test
    void wrapStopsTheServerItStartedEarlyWhenItsOptionsAreWrong() throws Exception {
        Path pid = dir.resolve("pid");
        // --timeout wants a duration: the server is started before that is found out
        Process process = new ProcessBuilder(Processes.LAUNCHER.toString(), "wrap", "--timeout", "soonish",
                "sh", "-c", "echo $$ > " + pid + "; exec cat").redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        assertThat(process.waitFor(2, TimeUnit.MINUTES)).isTrue();
        assertThat(process.exitValue()).isEqualTo(2);

        assertThat(pid).exists();
        long server = Long.parseLong(Files.readString(pid).strip());
        ProcessHandle.of(server).ifPresent(p -> p.onExit().orTimeout(10, TimeUnit.SECONDS).join());
        assertThat(ProcessHandle.of(server).map(ProcessHandle::isAlive).orElse(false)).isFalse();
    }

    @Test
    void wrapTakesOverTheServerTheLauncherStartedAndClosingItsInputEndsIt() throws Exception {
        Path seen = dir.resolve("seen");
        // The server notes what its stdin is, then reads it to the end: "eof" only if it was closed,
        // not if the server was killed.
        Process process = new ProcessBuilder(Processes.LAUNCHER.toString(), "wrap", "--data-dir", dir.toString(),
                "--", "sh", "-c", "readlink /proc/$$/fd/0 >" + seen + "; cat >/dev/null; echo eof >>" + seen)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        for (int i = 0; i < 6000 && read(seen).isEmpty(); i++) {
            Thread.sleep(20);
        }
        // started by the launcher, on the named pipe it hands to the JVM (a JVM-started child has an anonymous pipe)
        assertThat(read(seen)).contains("warden-wrap.");

        process.getOutputStream().close();
        assertThat(process.waitFor(2, TimeUnit.MINUTES)).isTrue();
        for (int i = 0; i < 6000 && !read(seen).contains("eof"); i++) {
            Thread.sleep(20);
        }
        assertThat(read(seen)).contains("eof");
    }

    /**
     * A fresh clone in miniature: the launcher, and a stand-in for the build ({@code ./mvnw}) that
     * notes that it ran, waits until the test lets it finish, and then writes the real jar in place.
     */
    private Path freshTreeWithStandInBuild() throws Exception {
        Path tree = Files.createDirectories(dir.resolve("tree"));
        Files.copy(Processes.LAUNCHER, tree.resolve("warden"));
        Path target = ROOT.resolve("warden-cli/target");
        Path mvnw = Files.writeString(tree.resolve("mvnw"), """
                #!/usr/bin/env bash
                echo "$$" >>builds
                while [[ ! -e go ]]; do sleep 0.05; done
                mkdir -p warden-cli/target
                ln -sfn '%s' warden-cli/target/lib
                cp '%s' warden-cli/target/warden.jar
                """.formatted(target.resolve("lib"), target.resolve("warden.jar")));
        mvnw.toFile().setExecutable(true);
        tree.resolve("warden").toFile().setExecutable(true);
        return tree;
    }

    private Process launcher(Path tree, Map<String, String> environment, int n) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(tree.resolve("warden").toString(), "--version")
                .redirectOutput(tree.resolve("out" + n).toFile()).redirectError(tree.resolve("err" + n).toFile());
        builder.environment().put("WARDEN_AOT", "0");
        builder.environment().put("WARDEN_JAVA_HOME", System.getProperty("java.home"));
        builder.environment().putAll(environment);
        return builder.start();
    }

    private static String read(Path file) throws Exception {
        return Files.exists(file) ? Files.readString(file) : "";
    }

    private void twoLaunchersOnAFreshCloneBuildOnce(Map<String, String> environment) throws Exception {
        Path tree = freshTreeWithStandInBuild();
        Process first = launcher(tree, environment, 1);
        Process second = launcher(tree, environment, 2);

        // One builds, the other says it waits for that build; only then may the build finish.
        String said = "";
        for (int i = 0; i < 6000 && !(said.contains("building the distribution")
                && said.contains("waiting for another launcher's build")); i++) {
            Thread.sleep(20);
            said = read(tree.resolve("err1")) + read(tree.resolve("err2"));
        }
        assertThat(said).contains("building the distribution").contains("waiting for another launcher's build");
        Files.createFile(tree.resolve("go"));

        assertThat(first.waitFor(2, TimeUnit.MINUTES) && second.waitFor(2, TimeUnit.MINUTES)).isTrue();
        assertThat(first.exitValue()).as(read(tree.resolve("err1"))).isZero();
        assertThat(second.exitValue()).as(read(tree.resolve("err2"))).isZero();
        assertThat(read(tree.resolve("out1"))).startsWith("warden ");
        assertThat(read(tree.resolve("out2"))).startsWith("warden ");
        assertThat(Files.readAllLines(tree.resolve("builds"))).hasSize(1);
    }

    @Test
    void twoLaunchersStartedAtOnceOnAFreshCloneBuildOnceAndBothRun() throws Exception {
        twoLaunchersOnAFreshCloneBuildOnce(Map.of());
    }

    @Test
    void withoutFlockTwoLaunchersStillBuildOnce() throws Exception {
        // Every program of the usual places but flock, so the launcher takes its other lock.
        Path bin = Files.createDirectories(dir.resolve("bin-without-flock"));
        for (String place : List.of("/usr/local/bin", "/usr/bin", "/bin")) {
            if (!Files.isDirectory(Path.of(place))) {
                continue;
            }
            try (var programs = Files.list(Path.of(place))) {
                for (Path program : programs.toList()) {
                    Path link = bin.resolve(program.getFileName());
                    if (!program.getFileName().toString().equals("flock") && !Files.exists(link, LinkOption.NOFOLLOW_LINKS)) {
                        Files.createSymbolicLink(link, program);
                    }
                }
            }
        }
        twoLaunchersOnAFreshCloneBuildOnce(Map.of("PATH", bin.toString()));
    }

    @Test
    void aBuildThatWasInterruptedIsDoneAgain() throws Exception {
        Path tree = freshTreeWithStandInBuild();
        Files.createDirectories(tree.resolve("warden-cli/target"));
        Files.writeString(tree.resolve("warden-cli/target/warden.jar"), "half a jar");
        Files.createFile(tree.resolve("warden-cli/target/.building"));
        Files.createFile(tree.resolve("go"));

        Process process = launcher(tree, Map.of(), 1);

        assertThat(process.waitFor(2, TimeUnit.MINUTES)).isTrue();
        assertThat(process.exitValue()).as(read(tree.resolve("err1"))).isZero();
        assertThat(read(tree.resolve("out1"))).startsWith("warden ");
        assertThat(Files.readAllLines(tree.resolve("builds"))).hasSize(1);
    }
}
