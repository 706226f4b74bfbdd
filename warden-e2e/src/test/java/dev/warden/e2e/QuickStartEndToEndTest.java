package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * docs/quickstart as a newcomer uses it: its own pom imports warden-bom and depends on
 * warden-server without a version; it builds offline against the artifacts this build made, runs
 * with {@code java -jar}, and the official TypeScript SDK client, starting it over stdio, gets the
 * greeting for good arguments and a VALIDATION_ERROR with a pointer for bad ones.
 */
class QuickStartEndToEndTest {

    @TempDir
    Path dir;

    @Test
    void theQuickStartBuildsFromTheBomAndAnswersTheSdkClient() throws Exception {
        Path project = UserProjects.built("docs/quickstart", dir, "package");
        Path jar = project.resolve("target/hello-1.0.0.jar");
        assertThat(jar).exists();
        assertLibrariesAreTheOnesThisBuildUses(project.resolve("target/lib"));

        String java = ProcessHandle.current().info().command().orElse("java");
        String calls = """
                {"good":{"name":"greet","arguments":{"name":"Ada"}},
                 "bad":{"name":"greet","arguments":{"name":["Grace-Secret-Value"]}}}""";
        Processes.Result run = Processes.run(Processes.node("stdio-calls.mjs", calls, java, "-jar", jar.toString()));
        assertThat(run.exitCode()).as("client stderr: %s", run.stderr()).isZero();
        JsonNode received = Json.mapper().readTree(run.stdout());
        assertThat(received.get("connect").get("ok").asBoolean()).as("%s", received).isTrue();
        assertThat(received.get("serverVersion").get("name").stringValue()).isEqualTo("hello");
        assertThat(received.get("listTools").get("value").get("tools").get(0).get("name").stringValue())
                .isEqualTo("greet");

        JsonNode good = received.get("good").get("value");
        assertThat(good.path("isError").asBoolean()).as("%s", good).isFalse();
        assertThat(good.get("content").get(0).get("text").stringValue()).isEqualTo("Hello, Ada!");

        JsonNode bad = received.get("bad").get("value");
        assertThat(bad.get("isError").asBoolean()).as("%s", bad).isTrue();
        JsonNode error = Json.mapper().readTree(bad.get("content").get(0).get("text").stringValue()).get("error");
        assertThat(error.get("code").stringValue()).isEqualTo("VALIDATION_ERROR");
        assertThat(error.get("violations").get(0).get("pointer").stringValue()).isEqualTo("/name");
        assertThat(error.get("ref").stringValue()).startsWith("ref_");
        assertThat(bad.toString()).as("the value sent is not repeated").doesNotContain("Grace-Secret-Value");
    }

    /**
     * A user's build has no warden-parent to pin libraries: it must still get the versions the
     * parent pins (its dependencyManagement, Jackson through its BOM) and this build tests with,
     * not a library's own older pin (the schema validator's Jackson, say).
     */
    private static void assertLibrariesAreTheOnesThisBuildUses(Path lib) throws Exception {
        String parent = Files.readString(UserProjects.ROOT.resolve("pom.xml"));
        String managed = parent.substring(parent.indexOf("<dependencyManagement>"),
                parent.indexOf("</dependencyManagement>"));
        Set<String> pinned = new HashSet<>();
        Matcher artifact = Pattern.compile("<artifactId>([^<]+)</artifactId>").matcher(managed);
        while (artifact.find()) {
            pinned.add(artifact.group(1));
        }
        Map<String, String> tested = new HashMap<>();
        Pattern layout = Pattern.compile(".*/([^/]+)/([^/]+)/\\1-\\2\\.jar$");
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            Matcher m = layout.matcher(entry.replace(File.separatorChar, '/'));
            if (m.matches()) {
                tested.put(m.group(1), m.group(2));
            }
        }
        int checked = 0;
        try (Stream<Path> jars = Files.list(lib)) {
            for (Path jar : jars.toList()) {
                String name = jar.getFileName().toString();
                Matcher m = Pattern.compile("(.+?)-(\\d[^-]*(?:-[A-Za-z0-9.]+)?)\\.jar").matcher(name);
                assertThat(m.matches()).as(name).isTrue();
                if (name.startsWith("warden-") || !(pinned.contains(m.group(1)) || name.startsWith("jackson-"))) {
                    continue;
                }
                assertThat(tested).as("%s: the version this build pins and tests with", name)
                        .containsEntry(m.group(1), m.group(2));
                checked++;
            }
        }
        assertThat(checked).as("Jackson, the validator, RE2/J").isGreaterThanOrEqualTo(4);
    }
}
