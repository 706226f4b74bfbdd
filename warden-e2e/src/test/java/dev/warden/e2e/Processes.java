package dev.warden.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs the npm-installed clients against the packaged {@code warden} launcher. */
final class Processes {

    static final Path LAUNCHER = Path.of(System.getProperty("warden.launcher", "../warden")).toAbsolutePath()
            .normalize();
    static final Path NODE_DIR = Path.of(System.getProperty("warden.node.dir", "src/test/node")).toAbsolutePath();
    static final String NODE = System.getProperty("warden.node", "node");

    private Processes() {
    }

    record Result(int exitCode, String stdout, String stderr) {
    }

    static Result run(List<String> command) throws IOException, InterruptedException {
        Path out = Files.createTempFile("warden-e2e", ".out");
        Path err = Files.createTempFile("warden-e2e", ".err");
        Process process = new ProcessBuilder(command).directory(NODE_DIR.toFile())
                .redirectOutput(out.toFile()).redirectError(err.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .start();
        // A hang guard, not a speed assertion: the whole scenario takes seconds.
        if (!process.waitFor(5, TimeUnit.MINUTES)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly); // a server it started, too
            process.destroyForcibly();
            throw new AssertionError("client did not finish: " + command);
        }
        return new Result(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }

    static List<String> node(String script, String... args) {
        List<String> command = new ArrayList<>(List.of(NODE, NODE_DIR.resolve(script).toString()));
        command.addAll(List.of(args));
        return command;
    }

    /** The Inspector CLI against any server command. */
    static List<String> inspectorFor(List<String> server, String... args) {
        List<String> command = new ArrayList<>(List.of(NODE,
                NODE_DIR.resolve("node_modules/@modelcontextprotocol/inspector/cli/build/cli.js").toString(), "--cli"));
        command.addAll(server);
        command.addAll(List.of(args));
        return command;
    }

    static Result run(List<String> command, java.util.Map<String, String> environment)
            throws IOException, InterruptedException {
        Path out = Files.createTempFile("warden-e2e", ".out");
        Path err = Files.createTempFile("warden-e2e", ".err");
        ProcessBuilder builder = new ProcessBuilder(command).directory(NODE_DIR.toFile())
                .redirectOutput(out.toFile()).redirectError(err.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        builder.environment().putAll(environment);
        Process process = builder.start();
        if (!process.waitFor(5, TimeUnit.MINUTES)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly); // a server it started, too
            process.destroyForcibly();
            throw new AssertionError("client did not finish: " + command);
        }
        return new Result(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }

    static List<String> inspector(String... args) {
        List<String> command = new ArrayList<>(List.of(NODE,
                NODE_DIR.resolve("node_modules/@modelcontextprotocol/inspector/cli/build/cli.js").toString(),
                "--cli", LAUNCHER.toString(), "demo"));
        command.addAll(List.of(args));
        return command;
    }
}
