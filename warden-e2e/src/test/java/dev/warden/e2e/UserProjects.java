package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.testkit.Docs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Projects of the docs built as a user's project would be: offline, with Maven coordinates only,
 * against the dev.warden artifacts this build has just made (in a repository of their own, in
 * front of the usual local one), so no other build's snapshot is used.
 */
final class UserProjects {

    static final Path ROOT = Docs.repository();

    private UserProjects() {
    }

    /** How a build went: whether it ended in time, its exit value, and its output. */
    private record Build(boolean ended, int exitValue, String log) {
    }

    /** Runs {@code mvnw -o} with {@code goals} on {@code project}, this build's artifacts in {@code repository} first. */
    private static Build build(Path project, Path repository, String... goals)
            throws IOException, InterruptedException {
        Path tail = Path.of(System.getProperty("maven.repo.local",
                Path.of(System.getProperty("user.home"), ".m2", "repository").toString()));
        // Maven 3.9's read-only tail: this build's jars first, the local repository behind them.
        List<String> command = new ArrayList<>(List.of(ROOT.resolve("mvnw").toString(), "-B", "-q", "-ntp", "-o",
                "-f", project.resolve("pom.xml").toString(), "-Dmaven.repo.local=" + repository,
                "-Dmaven.repo.local.tail=" + tail));
        command.addAll(List.of(goals));
        Path log = Files.createTempFile(project.getParent(), "build", ".log");
        Process build = new ProcessBuilder(command).directory(project.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        boolean ended = build.waitFor(300, TimeUnit.SECONDS);
        if (!ended) {
            build.descendants().forEach(ProcessHandle::destroyForcibly);
            build.destroyForcibly();
            build.waitFor();
        }
        return new Build(ended, build.exitValue(), Files.readString(log));
    }

    /**
     * Copies the project at {@code source} (relative to the repository) into {@code dir} and runs
     * {@code goals} on it against this build's artifacts; fails unless the build succeeds.
     */
    static Path built(String source, Path dir, String... goals) throws IOException, InterruptedException {
        Path repository = dir.resolve("repository");
        String version = installReactor(repository);
        Path project = dir.resolve("project");
        copy(ROOT.resolve(source), project);
        Build build = build(project, repository, goals);
        assertThat(build.ended()).as("the build of %s ends", source).isTrue();
        assertThat(build.exitValue()).as("%s against warden %s:%n%s", source, version, build.log()).isZero();
        return project;
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

    /** Copies a project of the docs, without what a build of it left there. */
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
