package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * warden-examples-spring's executable jar, a Spring Boot application with the Warden starter, run
 * as its users run it ({@code java -jar}) on the JDK running the tests.
 */
final class SpringSample {

    static final Path JAR = Path.of(System.getProperty("warden.spring.sample.jar",
            "../warden-examples-spring/target/warden-examples-spring-0.1.0-SNAPSHOT-exec.jar")).toAbsolutePath();
    static final String JAVA = ProcessHandle.current().info().command().orElse("java");
    /** What the starter logs once Warden's own Jetty is bound. */
    static final String SERVING = "Warden MCP: serving ";
    /** What Boot logs once the application's own web server is bound. */
    static final String WEB_SERVER = "Jetty started on port ";

    private SpringSample() {
    }

    /** The application with {@code args}, its incidents under {@code incidents}. */
    static LinePeer start(Path incidents, String... args) throws Exception {
        assertThat(JAR).as("the sample's executable jar (built by warden-examples-spring)").exists();
        List<String> command = new ArrayList<>(List.of(JAVA, "-jar", JAR.toString(),
                "--warden.mcp.incidents.dir=" + incidents));
        command.addAll(List.of(args));
        return new LinePeer(command);
    }

    /** The rest of the first line that contains {@code marker}; a hang guard of two minutes, not a speed check. */
    static String awaitLog(LinePeer app, String marker) throws Exception {
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (System.nanoTime() < deadline) {
            String line = app.nextLine(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
            int at = line.indexOf(marker);
            if (at >= 0) {
                return line.substring(at + marker.length());
            }
        }
        throw new AssertionError("no line with \"" + marker + "\"; stderr: " + Files.readString(app.stderr));
    }
}
