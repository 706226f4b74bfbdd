package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.testkit.Docs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The docs' samples from the outside: docs/samples/java (the project every Java and pom block in
 * the docs quotes, see warden-cli's DocSamplesTest) builds as a user's project would, with the
 * Maven coordinates the docs give, against the artifacts this build has just made; and the docs'
 * `./warden` lines that are cheap to run (sanitize, keys, incidents) run with the packaged launcher.
 */
class DocSamplesEndToEndTest {

    private static final Path ROOT = UserProjects.ROOT;

    /** The commands run as the docs write them; the others (servers, audits) are checked by DocSamplesTest. */
    private static final Set<String> CHEAP = Set.of("sanitize", "keys", "incidents");

    @TempDir
    Path dir;

    @Test
    void theSampleProjectCompilesAgainstTheArtifactsThisBuildMade() throws Exception {
        long start = System.nanoTime();
        Path project = UserProjects.built("docs/samples/java", dir, "compile");
        assertThat(project.resolve("target/classes/orders/OrdersServer.class")).exists();
        assertThat(project.resolve("target/classes/orders/OrdersClient.class")).exists();
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
}
