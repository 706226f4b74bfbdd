package dev.warden.cli;

import dev.warden.core.incident.FileIncidentStore;
import dev.warden.core.incident.IncidentSink;
import dev.warden.core.segment.Retention;
import dev.warden.core.sanitize.Policy;
import dev.warden.gateway.auditlog.FileAuditLog;
import dev.warden.gateway.Gateway;
import dev.warden.gateway.config.ConfigException;
import dev.warden.gateway.config.GatewayConfig;
import dev.warden.gateway.config.Upstream;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code warden wrap [options] [--] COMMAND [ARGS…]}: Warden in front of one MCP server over stdio,
 * a drop-in for the server's command in a client's configuration.
 *
 * <p>Everything from the first word that is not one of wrap's options (or from after {@code --})
 * is the server's command, passed as it is: {@code warden wrap npx -y pkg} runs {@code npx -y pkg}
 * (the Inspector and other clients put the server's command after {@code wrap} just so). The
 * parser is told to stop at that word ({@link Warden#commandLine}), and {@link #commandStart} finds
 * it the same way for the server started before parsing ({@link Prestarted}).
 */
@Command(name = "wrap", mixinStandardHelpOptions = true, modelTransformer = WrapCommand.Wording.class,
        description = {"Runs COMMAND as an MCP server and stands between it and the client on stdin/stdout: "
                + "what the server leaks in errors and logs is sanitized, every failure gets a code and a ref "
                + "(`warden incidents show REF` shows the original), and a crashing or hanging server cannot "
                + "take the client down.",
                "Everything from COMMAND on is the server's, options included; `--` before it is optional.",
                "Example: warden wrap npx -y @modelcontextprotocol/server-everything"})
final class WrapCommand implements Callable<Integer> {

    @Option(names = "--name", paramLabel = "NAME",
            description = "The server's name in logs and incidents (default: from the command).")
    String name;

    @Option(names = "--timeout", paramLabel = "DURATION",
            description = "How long a request may stay silent (progress resets it), e.g. 60s, 5m (default: 60s).")
    String timeout = "60s";

    @Option(names = "--policy", paramLabel = "POLICY",
            description = "How failure texts and log messages are sanitized: redact, strict or passthrough "
                    + "(default: redact).")
    String policy = "redact";

    @Option(names = "--keep-credentials-in-results",
            description = "Do not redact credentials in successful results (they are redacted by default).")
    boolean keepCredentials;

    @Option(names = "--redact-pii",
            description = "Also redact personal data (emails, card numbers, SSNs, phone numbers) in failures and "
                    + "successful results (off by default).")
    boolean pii;

    @Option(names = "--fail-closed",
            description = "Refuse calls while the audit log (DIR/audit) or the incident store cannot be written, "
                    + "instead of serving them unrecorded.")
    boolean failClosed;

    @Mixin
    ServeOptions serve = new ServeOptions();

    @Option(names = "--incidents-max-size", paramLabel = "SIZE",
            description = "Most the incident store keeps on disk, oldest removed first, e.g. 256MiB (the default).")
    String incidentsMaxSize;

    @Option(names = "--incidents-max-age", paramLabel = "DURATION",
            description = "Oldest incident kept, e.g. 14d (the default), 72h.")
    String incidentsMaxAge;

    @Option(names = "--audit-max-size", paramLabel = "SIZE",
            description = "Most the audit log keeps on disk, oldest removed first, e.g. 256MiB (the default).")
    String auditMaxSize;

    @Option(names = "--audit-max-age", paramLabel = "DURATION",
            description = "Oldest audit record kept, e.g. 14d (the default), 90d.")
    String auditMaxAge;

    @Option(names = "--keep-credentials-in-results-of", paramLabel = "TOOL",
            description = "Do not redact credentials in this tool's successful results (repeatable): for tools "
                    + "that read files the model edits and writes back, where a redacted token would be written "
                    + "back as its marker.")
    List<String> keepCredentialsOf = List.of();

    @Parameters(paramLabel = "COMMAND", arity = "1..*",
            description = "The MCP server to run and its arguments, as they are (optionally after --).")
    List<String> command;

    /** wrap's limit holds both ways, between two peers that are both outside Warden. */
    static final class Wording implements CommandLine.IModelTransformer {
        @Override
        public CommandLine.Model.CommandSpec transform(CommandLine.Model.CommandSpec command) {
            return OwnWording.apply(command, java.util.Map.of(MaxMessageBytesOption.NAME,
                    "Largest message accepted, both ways: from the client and from the server (default: "
                            + MaxMessageBytesOption.DEFAULT + ", 64 MiB)."));
        }
    }

    /** wrap's options that take a value (the next word, or after {@code =}); a test holds this to the annotations. */
    static final Set<String> VALUE_OPTIONS = Set.of("--name", "--timeout", "--policy", "--data-dir", "--incident-log",
            "--max-message-bytes", "--keep-credentials-in-results-of", "--incidents-max-size", "--incidents-max-age",
            "--audit-max-size", "--audit-max-age");
    /** wrap's options that take none. */
    static final Set<String> FLAG_OPTIONS = Set.of("--keep-credentials-in-results", "--redact-pii", "--fail-closed");

    /**
     * Where the server's command starts in {@code args} (from {@code from} on, past wrap's own
     * options), as the parser will find it; empty if there is none, or if the arguments ask for
     * something else (help, a version) or hold an option wrap does not know, which the parser
     * refuses.
     */
    static OptionalInt commandStart(String[] args, int from) {
        for (int i = from; i < args.length; i++) {
            String arg = args[i];
            if (arg.equals("--")) {
                return i + 1 < args.length ? OptionalInt.of(i + 1) : OptionalInt.empty();
            }
            if (!arg.startsWith("-") || arg.equals("-")) {
                return OptionalInt.of(i);
            }
            int equals = arg.indexOf('=');
            String name = equals > 0 ? arg.substring(0, equals) : arg;
            if (VALUE_OPTIONS.contains(name)) {
                if (equals < 0) {
                    i++; // its value, which the parser does not take from what looks like an option
                    if (i == args.length || args[i].equals("--") || VALUE_OPTIONS.contains(args[i])
                            || FLAG_OPTIONS.contains(args[i])) {
                        return OptionalInt.empty();
                    }
                }
            } else if (!FLAG_OPTIONS.contains(name) || equals > 0) {
                return OptionalInt.empty();
            }
        }
        return OptionalInt.empty();
    }

    @Override
    public Integer call() throws Exception {
        int maxBytes = serve.maxMessageBytes.orDefault();
        if (maxBytes < 1024) {
            System.err.println("warden wrap: --max-message-bytes must be at least 1024, got " + maxBytes);
            return 2;
        }
        java.util.Map<String, Boolean> kept = new java.util.LinkedHashMap<>();
        keepCredentialsOf.forEach(tool -> kept.put(tool, false));
        Upstream upstream;
        Retention incidentsKept;
        Retention auditKept;
        try {
            incidentsKept = retention(Retention.DEFAULT, incidentsMaxSize, incidentsMaxAge, "--incidents-max-");
            auditKept = retention(Retention.DEFAULT, auditMaxSize, auditMaxAge, "--audit-max-");
            upstream = Upstream.stdio(name != null ? name : nameOf(command), command, java.util.Map.of(),
                            maxBytes).toBuilder()
                    .timeout(GatewayConfig.duration(timeout, "--timeout"))
                    .policy(Policy.parse(policy))
                    .redactSuccessfulResults(!keepCredentials)
                    .redactResultsOf(kept)
                    .pii(pii).build();
        } catch (IllegalArgumentException | ConfigException e) {
            // A value of the right type but not a usable one (--timeout soon, --policy lax): said, not a stack trace.
            System.err.println("warden wrap: " + e.getMessage());
            return 2;
        }
        IncidentSink log = serve.incidentLog.besideTheStore(incidentsKept);
        try (Prestarted server = Prestarted.claim(command, maxBytes, Upstream.stderrLog(upstream.name()),
                upstream.connector());
             FileIncidentStore store = FileIncidentStore.open(serve.dataDir.incidents(), incidentsKept);
             FileAuditLog audit = FileAuditLog.open(serve.dataDir.incidents().resolveSibling("audit"), auditKept,
                     java.time.Clock.systemUTC())) {
            // Launched: the command line the user wrote (its directories are published to the caller)
            try (Gateway gateway = Gateway.builder()
                    .upstream(upstream.toBuilder().connector(new Upstream.Launched(command, server)).build())
                    .incidents(IncidentSink.all(store, log))
                    .audit(audit, failClosed).maxMessageBytes(maxBytes).build()) {
                // SIGTERM ends the JVM without unwinding this block: the hook stops the server (a server
                // that reads no stdin would not see it close, and would be left running, orphaned). It
                // stays registered to the end: a signal while this block closes (its stop of the server
                // runs in the background) must not leave the server behind either.
                Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().name("warden-wrap-stop")
                        .unstarted(() -> stopOnSignal(gateway, server)));
                gateway.serveStdio();
            }
        }
        return 0;
    }

    /**
     * On SIGTERM (and at any exit, when there is mostly nothing left to do): passes the signal on
     * to the processes this one started at once (as a supervisor would: a server that reads no
     * stdin would not see it close), closes the gateway for at most a few seconds meanwhile, then
     * kills whatever still runs. All of it well inside the 10 s a
     * container runtime waits before its SIGKILL, which would leave the server orphaned.
     */
    private static void stopOnSignal(Gateway gateway, Prestarted server) {
        List<ProcessHandle> started = ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).toList();
        started.forEach(ProcessHandle::destroy);
        Thread closing = Thread.ofPlatform().daemon().name("warden-wrap-close").start(() -> {
            server.close();
            gateway.close();
        });
        try {
            closing.join(java.time.Duration.ofSeconds(3));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        List<ProcessHandle> left = ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).toList();
        left.forEach(ProcessHandle::destroy);
        try {
            java.util.concurrent.CompletableFuture.allOf(left.stream().map(ProcessHandle::onExit)
                    .toArray(java.util.concurrent.CompletableFuture[]::new)).get(2, java.util.concurrent.TimeUnit.SECONDS);
        } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException e) {
            left.forEach(ProcessHandle::destroyForcibly);
        } catch (InterruptedException e) {
            left.forEach(ProcessHandle::destroyForcibly);
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The command for {@code wrap [options] -- COMMAND…} read without picocli, when every option
     * before {@code --} is one of this command's, given once, in a form picocli reads the same way
     * ({@code --name X} or {@code --name=X}); else empty, and picocli reads the arguments (and
     * explains what is wrong with them). Picocli models a command by reflection and makes a class
     * per annotation at run time, and its class files are too old for the JVM's start-up cache:
     * that was a quarter of {@code warden wrap}'s start, spent before the server could be reached.
     */
    static java.util.Optional<WrapCommand> withoutPicocli(String[] args) {
        int separator = java.util.Arrays.asList(args).indexOf("--");
        if (args.length < 3 || !args[0].equals("wrap") || separator < 1 || separator == args.length - 1) {
            return java.util.Optional.empty();
        }
        for (String arg : args) {
            // Arguments starting with @ are left to picocli (whose @FILE expansion Warden turns off): rare, and its rules are its own.
            if (arg.length() > 1 && arg.startsWith("@")
                    && (arg.startsWith("@@") || new java.io.File(arg.substring(1)).canRead())) {
                return java.util.Optional.empty();
            }
        }
        WrapCommand wrap = new WrapCommand();
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (int i = 1; i < separator; i++) {
            String arg = args[i];
            int eq = arg.indexOf('=');
            String option = eq > 0 ? arg.substring(0, eq) : arg;
            if (!seen.add(option)) {
                return java.util.Optional.empty();
            }
            boolean flag = switch (option) {
                case "--keep-credentials-in-results" -> wrap.keepCredentials = true;
                case "--redact-pii" -> wrap.pii = true;
                case "--fail-closed" -> wrap.failClosed = true;
                default -> false;
            };
            if (flag) {
                if (eq > 0) {
                    return java.util.Optional.empty(); // --fail-closed=false and the like: picocli's to read
                }
                continue;
            }
            String value;
            if (eq > 0) {
                value = arg.substring(eq + 1);
            } else if (i + 1 < separator) {
                value = args[++i];
            } else {
                return java.util.Optional.empty();
            }
            if (value.startsWith("-") && eq < 0) {
                return java.util.Optional.empty(); // an option where a value belongs: picocli explains
            }
            switch (option) {
                case "--name" -> wrap.name = value;
                case "--timeout" -> wrap.timeout = value;
                case "--policy" -> wrap.policy = value;
                case "--data-dir" -> wrap.serve.dataDir.dataDir = Path.of(value);
                case "--incident-log" -> wrap.serve.incidentLog.incidentLog = Path.of(value);
                case "--incidents-max-size" -> wrap.incidentsMaxSize = value;
                case "--incidents-max-age" -> wrap.incidentsMaxAge = value;
                case "--audit-max-size" -> wrap.auditMaxSize = value;
                case "--audit-max-age" -> wrap.auditMaxAge = value;
                case "--max-message-bytes" -> {
                    try {
                        wrap.serve.maxMessageBytes.maxMessageBytes = Integer.parseInt(value);
                    } catch (NumberFormatException e) {
                        return java.util.Optional.empty();
                    }
                }
                default -> {
                    return java.util.Optional.empty();
                }
            }
        }
        wrap.command = List.copyOf(java.util.Arrays.asList(args).subList(separator + 1, args.length));
        return java.util.Optional.of(wrap);
    }

    /** {@code base} with the size and age given on the command line ({@code --PREFIXsize}, {@code --PREFIXage}). */
    static Retention retention(Retention base, String size, String age, String prefix) {
        Retention r = base;
        if (size != null) {
            r = r.withMaxBytes(GatewayConfig.size(size, prefix + "size"));
        }
        if (age != null) {
            r = r.withMaxAge(GatewayConfig.duration(age, prefix + "age"));
        }
        return r;
    }

    /**
     * A short name from the command: the package a launcher runs ({@code npx -y @scope/server-x}
     * gives {@code server-x}), else the program's file name.
     */
    static String nameOf(List<String> command) {
        String program = Path.of(command.get(0)).getFileName().toString();
        boolean launcher = List.of("npx", "uvx", "node", "python", "python3", "deno", "bunx", "pipx", "docker")
                .contains(program);
        String chosen = program;
        if (launcher) {
            for (String arg : command.subList(1, command.size())) {
                if (!arg.startsWith("-") && !arg.equals("run")) {
                    chosen = arg;
                    break;
                }
            }
        }
        int modules = chosen.lastIndexOf("node_modules/");
        if (modules >= 0) {
            // node …/node_modules/@scope/package/dist/index.js: the package
            String[] parts = chosen.substring(modules + "node_modules/".length()).split("/");
            chosen = parts[0].startsWith("@") && parts.length > 1 ? parts[1] : parts[0];
        } else {
            String[] parts = chosen.split("/");
            int last = parts.length - 1;
            // …/my-server/dist/index.js: the directory that names it
            while (last > 0 && List.of("index.js", "index.mjs", "main.py", "__main__.py", "server.py", "index.ts",
                    "dist", "build", "lib", "src", "bin").contains(parts[last])) {
                last--;
            }
            chosen = parts[last];
        }
        String base = chosen.substring(chosen.lastIndexOf('/') + 1);
        int at = base.indexOf('@', 1);
        base = at > 0 ? base.substring(0, at) : base;
        int dot = base.lastIndexOf('.');
        base = dot > 0 ? base.substring(0, dot) : base;
        StringBuilder clean = new StringBuilder();
        for (char c : base.toCharArray()) {
            clean.append(Character.isLetterOrDigit(c) || c == '-' ? c : '-');
        }
        String out = clean.toString().replace("--", "-");
        return out.isBlank() ? "upstream" : out;
    }
}
