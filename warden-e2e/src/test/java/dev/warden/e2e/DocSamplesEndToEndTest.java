package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.testkit.Docs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The docs' samples from the outside: docs/samples/java (the project every Java and pom block in
 * the docs quotes, see warden-cli's DocSamplesTest) builds as a user's project would, with the
 * Maven coordinates the docs give, against the artifacts this build has just made; and the docs'
 * `./warden` lines that are cheap to run (sanitize, keys, incidents) run with the packaged launcher.
 */
class DocSamplesEndToEndTest {

    private static final Path ROOT = Docs.repository();

    /** The commands run as the docs write them; the others (servers, audits) are checked by DocSamplesTest. */
    private static final Set<String> CHEAP = Set.of("sanitize", "keys", "incidents");

    @TempDir
    Path dir;

    @Test
    void theSampleProjectCompilesAgainstTheArtifactsThisBuildMade() throws Exception {
        Path repository = dir.resolve("repository");
        String version = installReactor(repository);
        Path project = dir.resolve("project");
        copy(ROOT.resolve("docs/samples/java"), project);
        Path tail = Path.of(System.getProperty("maven.repo.local",
                Path.of(System.getProperty("user.home"), ".m2", "repository").toString()));
        // Offline, with this build's jars first and the usual local repository behind them for
        // everything else (Maven 3.9's read-only tail), so no other build's snapshot is used.
        List<String> command = List.of(ROOT.resolve("mvnw").toString(), "-B", "-q", "-ntp", "-o",
                "-f", project.resolve("pom.xml").toString(), "-Dmaven.repo.local=" + repository,
                "-Dmaven.repo.local.tail=" + tail, "compile");
        long start = System.nanoTime();
        Process build = new ProcessBuilder(command).directory(project.toFile()).redirectErrorStream(true)
                .redirectOutput(dir.resolve("build.log").toFile()).start();
        boolean ended = build.waitFor(300, TimeUnit.SECONDS);
        if (!ended) {
            build.descendants().forEach(ProcessHandle::destroyForcibly);
            build.destroyForcibly();
        }
        assertThat(ended).as("the sample's build ends").isTrue();
        String log = Files.readString(dir.resolve("build.log"));
        assertThat(build.exitValue()).as("docs/samples/java against warden %s:%n%s", version, log).isZero();
        assertThat(project.resolve("target/classes/orders/OrdersServer.class")).exists();
        assertThat(project.resolve("target/classes/orders/OrdersClient.class")).exists();
        assertThat(project.resolve("target/classes/hello/Hello.class")).exists();
        assertThat(project.resolve("target/classes/orders/OrderTools.class")).exists();
        System.out.printf("docs/samples/java built in %d ms%n", (System.nanoTime() - start) / 1_000_000);
    }

    @Test
    void theDocsCheapCommandsRunAsWritten() throws Exception {
        Files.writeString(dir.resolve("server.log"), "ERROR org.postgresql.util.PSQLException: password "
                + "authentication failed for user \"app\" at /srv/app/db/Pool.java:42 (db.internal:5432)\n");
        Files.writeString(dir.resolve("error.json"), "{\"error\":\"java.io.FileNotFoundException: "
                + "/home/alice/.aws/credentials (No such file or directory)\\n\\tat java.io.FileInputStream.open0"
                + "(Native Method)\"}\n");
        Files.writeString(dir.resolve("error.txt"), "ERROR: column \"emial\" does not exist\n");
        Pattern invocation = Pattern.compile("^\\./warden\\s+(\\S+)");
        List<String> ran = new ArrayList<>();
        for (Docs.Block block : Docs.read(ROOT).blocks("sh")) {
            for (String line : block.text().split("\n")) {
                Matcher m = invocation.matcher(line);
                if (!m.find() || !CHEAP.contains(m.group(1))) {
                    continue;
                }
                String shell = Processes.LAUNCHER + line.substring("./warden".length());
                ProcessBuilder builder = new ProcessBuilder("bash", "-c", shell).directory(dir.toFile())
                        .redirectOutput(dir.resolve("out.txt").toFile()).redirectError(dir.resolve("err.txt").toFile())
                        .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
                builder.environment().put("WARDEN_DATA_DIR", dir.resolve("data").toString());
                // The build packaged the launcher's distribution just now: these lines run it as it is.
                builder.environment().put("WARDEN_NO_REBUILD", "1");
                Process process = builder.start();
                boolean ended = process.waitFor(180, TimeUnit.SECONDS);
                if (!ended) {
                    process.descendants().forEach(ProcessHandle::destroyForcibly);
                    process.destroyForcibly();
                }
                assertThat(ended).as(block.where() + ": " + line).isTrue();
                String err = Files.readString(dir.resolve("err.txt"));
                if (line.contains("incidents show")) {
                    // No incident has that ref here: the command says so, it does not misread its arguments.
                    assertThat(process.exitValue()).as("%s: %s%n%s", block.where(), line, err).isEqualTo(1);
                    assertThat(err).contains("no incident ref_");
                } else {
                    assertThat(process.exitValue()).as("%s: %s%n%s", block.where(), line, err).isZero();
                }
                ran.add(line);
            }
        }
        assertThat(ran).as("the docs' sanitize, keys and incidents lines").hasSizeGreaterThanOrEqualTo(6);
        assertThat(Files.readString(dir.resolve("shareable.log"))).isNotBlank()
                .doesNotContain("PSQLException").doesNotContain("/srv/app").doesNotContain("db.internal");
    }

    /** This build's dev.warden poms and jars in a repository of their own; returns their version. */
    private static String installReactor(Path repository) throws IOException {
        String parent = Files.readString(ROOT.resolve("pom.xml"));
        Matcher m = Pattern.compile("<artifactId>warden-parent</artifactId>\\s*<version>([^<]+)</version>")
                .matcher(parent);
        assertThat(m.find()).as("the root pom's version").isTrue();
        String version = m.group(1);
        install(repository, "warden-parent", version, ROOT.resolve("pom.xml"), null);
        try (Stream<Path> modules = Files.list(ROOT)) {
            for (Path module : modules.filter(p -> p.getFileName().toString().startsWith("warden-")
                    && Files.isRegularFile(p.resolve("pom.xml"))).toList()) {
                String name = module.getFileName().toString();
                Path jar = module.resolve("target/" + name + "-" + version + ".jar");
                install(repository, name, version, module.resolve("pom.xml"), Files.isRegularFile(jar) ? jar : null);
            }
        }
        return version;
    }

    private static void install(Path repository, String artifact, String version, Path pom, Path jar)
            throws IOException {
        Path into = repository.resolve("dev/warden").resolve(artifact).resolve(version);
        Files.createDirectories(into);
        Files.copy(pom, into.resolve(artifact + "-" + version + ".pom"), StandardCopyOption.REPLACE_EXISTING);
        if (jar != null) {
            Files.copy(jar, into.resolve(artifact + "-" + version + ".jar"), StandardCopyOption.REPLACE_EXISTING);
        }
    }

    private static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path file : files.filter(p -> !from.relativize(p).startsWith("target")).toList()) {
                Path target = to.resolve(from.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(file, target);
                }
            }
        }
    }
}
