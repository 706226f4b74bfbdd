package dev.warden.e2e;

import dev.warden.core.json.Json;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.ToolProvider;
import tools.jackson.databind.JsonNode;

/**
 * How the audit twins of docs/audit-twins.md are started and audited: the real {@code warden audit
 * --format json --allow-destructive}, a stdio twin as the audit's command, an HTTP twin started first
 * on a port of the OS's choosing (it prints {@code PORT n}) and audited by URL.
 */
final class TwinRuns {

    static final Path TWINS = Path.of(System.getProperty("warden.twins.dir", "src/test/twins")).toAbsolutePath()
            .normalize();
    static final Path JS_TWINS = Processes.NODE_DIR.resolve("twins");
    /** Node 22 from npm (pinned in package.json): the JavaScript twins' database is node:sqlite. */
    static final String NODE_22 = WrapDifferentialEndToEndTest.NODE_22;
    static final String JAVA = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    static final String PYTHON = System.getProperty("warden.python", "python3");
    /** Jackson and H2 from this module's test class path: all the Java twins need besides the JDK. */
    static final String CLASS_PATH = Stream.of(System.getProperty("java.class.path").split(File.pathSeparator))
            .filter(entry -> entry.contains("/tools/jackson/core/") || entry.contains("/jackson-annotations/")
                    || entry.contains("/h2database/"))
            .collect(Collectors.joining(File.pathSeparator));
    private static Path javaClasses;

    /** The two callers the authorization twins know, one API key each. */
    static final List<String> KEYS = List.of("twin-key-alice-3f9a71", "twin-key-bob-8c2d44");

    private TwinRuns() {
    }

    enum Language {
        JAVASCRIPT("JavaScript", false), PYTHON("Python", false), JAVA("Java", true);

        final String label;
        final boolean heldOut;

        Language(String label, boolean heldOut) {
            this.label = label;
            this.heldOut = heldOut;
        }
    }

    enum Variant {
        VULNERABLE, SAFE
    }

    /** Which twin: the stdio one (one tool per tool-level class), the transport one, the two-caller one. */
    enum Kind {
        STDIO, SSE, NOTES
    }

    /** One audit's outcome: the report (when the audit produced one), and the twin's work folder. */
    record Audit(Language language, Variant variant, Kind kind, Processes.Result result, Optional<JsonNode> report,
            Path work) {

        boolean audited() {
            return result.exitCode() == 0 && report.isPresent();
        }

        List<JsonNode> findings() {
            return report.map(r -> r.path("findings").valueStream().toList()).orElse(List.of());
        }
    }

    static Audit audit(Language language, Variant variant, Kind kind) throws IOException, InterruptedException {
        Path work = Files.createTempDirectory("warden-twin-" + language.name().toLowerCase(Locale.ROOT) + "-");
        List<String> command = new ArrayList<>(List.of(Processes.LAUNCHER.toString(), "audit", "--format", "json",
                "--fail-on", "none", "--allow-destructive"));
        Processes.Result result;
        if (kind == Kind.STDIO) {
            command.add("--");
            command.addAll(stdioTwin(language, variant, work));
            result = Processes.run(command);
        } else {
            Process server = new ProcessBuilder(httpTwin(language, variant, kind)).directory(work.toFile())
                    .redirectError(work.resolve("twin-stderr.txt").toFile()).start();
            try {
                command.addAll(List.of("--url", "http://127.0.0.1:" + port(server) + "/mcp"));
                if (kind == Kind.NOTES) {
                    for (String key : KEYS) {
                        command.addAll(List.of("--header", "Authorization: Bearer " + key));
                    }
                }
                result = Processes.run(command);
            } finally {
                server.destroy();
                server.waitFor();
            }
        }
        Optional<JsonNode> report = Optional.empty();
        try {
            report = Optional.of(Json.mapper().readTree(result.stdout())).filter(JsonNode::isObject);
        } catch (RuntimeException notJson) {
            // An audit that could not run writes no report; its cells say "not audited".
        }
        return new Audit(language, variant, kind, result, report, work);
    }

    private static List<String> stdioTwin(Language language, Variant variant, Path work) throws IOException {
        List<String> command = switch (language) {
            case JAVASCRIPT -> new ArrayList<>(List.of(NODE_22, JS_TWINS.resolve("twins-stdio.mjs").toString()));
            case PYTHON -> new ArrayList<>(List.of(PYTHON, TWINS.resolve("python/twins_stdio.py").toString()));
            case JAVA -> new ArrayList<>(javaTwin("TwinsStdio.java"));
        };
        if (variant == Variant.SAFE) {
            command.add("--safe");
        }
        command.add(work.toString());
        return command;
    }

    private static List<String> httpTwin(Language language, Variant variant, Kind kind) throws IOException {
        String mode = kind == Kind.SSE ? "sse" : "notes";
        List<String> command = switch (language) {
            case JAVASCRIPT -> new ArrayList<>(List.of(NODE_22,
                    JS_TWINS.resolve(kind == Kind.SSE ? "twin-sse.mjs" : "twin-notes.mjs").toString()));
            case PYTHON -> new ArrayList<>(List.of(PYTHON, TWINS.resolve("python/twins_http.py").toString(), mode));
            case JAVA -> {
                List<String> java = new ArrayList<>(javaTwin("TwinsHttp.java"));
                java.add(mode);
                yield java;
            }
        };
        if (variant == Variant.SAFE) {
            command.add("--safe");
        }
        return command;
    }

    private static List<String> javaTwin(String file) throws IOException {
        return List.of(JAVA, "-cp", compiledJavaTwins() + File.pathSeparator + CLASS_PATH, file.replace(".java", ""));
    }

    /** Compiled once, so that a twin starts in a JVM's time, not javac's, within the audit's timeout. */
    private static synchronized Path compiledJavaTwins() throws IOException {
        if (javaClasses == null) {
            Path classes = Files.createTempDirectory("warden-twins-java");
            int status = ToolProvider.getSystemJavaCompiler().run(null, null, null, "-d", classes.toString(), "-cp",
                    CLASS_PATH, TWINS.resolve("java/TwinsStdio.java").toString(),
                    TWINS.resolve("java/TwinsHttp.java").toString());
            if (status != 0) {
                throw new AssertionError("the Java twins do not compile");
            }
            javaClasses = classes;
        }
        return javaClasses;
    }

    private static int port(Process server) throws IOException {
        BufferedReader lines = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
        for (String line = lines.readLine(); line != null; line = lines.readLine()) {
            if (line.startsWith("PORT ")) {
                // Keep draining what the twin prints, so it never blocks on a full pipe.
                Thread.ofVirtual().start(() -> lines.lines().forEach(ignored -> { }));
                return Integer.parseInt(line.substring("PORT ".length()).trim());
            }
        }
        throw new AssertionError("the twin exited before listening");
    }
}
