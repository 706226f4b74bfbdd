package dev.warden.cli;

import dev.warden.core.incident.FileIncidentStore;
import dev.warden.core.incident.IncidentSink;
import dev.warden.core.sanitize.Policy;
import dev.warden.core.segment.Retention;
import dev.warden.gateway.Gateway;
import dev.warden.gateway.auditlog.FileAuditLog;
import dev.warden.gateway.config.ConfigException;
import dev.warden.gateway.config.GatewayConfig;
import dev.warden.gateway.config.Upstream;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.Callable;

/**
 * {@code warden wrap [options] [--] COMMAND [ARGS…]}: Warden in front of one MCP server over stdio,
 * a drop-in for the server's command in a client's configuration.
 *
 * <p>Everything from the first word that is not one of wrap's options (or from after {@code --})
 * is the server's command, passed as it is: {@code warden wrap npx -y pkg} runs {@code npx -y pkg}
 * (the Inspector and other clients put the server's command after {@code wrap} just so). The
 * parser is told to stop at that word ({@link WrapSpec#commandLine}), and {@link #commandStart} finds
 * it the same way for the server started before parsing ({@link Prestarted}). Its options are
 * {@link WrapOption}'s table.
 */
final class WrapCommand implements Callable<Integer> {

    /** The options given (or their initial values), as {@link WrapSpec}'s parser sets them. */
    private final Map<WrapOption, Object> values = new EnumMap<>(WrapOption.class);

    /** The MCP server to run and its arguments. */
    List<String> command;

    /** The option's value: as given, else its initial one; empty if neither. */
    Optional<Object> given(WrapOption option) {
        return values.containsKey(option) ? Optional.ofNullable(values.get(option)) : option.initial;
    }

    /** Sets the option's value; null (picocli resetting it before a parse) puts back its initial one. */
    void give(WrapOption option, Object value) {
        if (value == null) {
            values.remove(option);
        } else {
            values.put(option, value);
        }
    }

    private Optional<String> text(WrapOption option) {
        return given(option).map(String.class::cast);
    }

    private boolean on(WrapOption option) {
        return given(option).map(Boolean.class::cast).orElse(false);
    }

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
            Optional<WrapOption> option = WrapOption.named(name);
            if (option.isEmpty()) {
                return OptionalInt.empty();
            }
            if (option.get().takesValue()) {
                if (equals < 0) {
                    i++; // its value, which the parser does not take from what looks like an option
                    if (i == args.length || args[i].equals("--") || WrapOption.named(args[i]).isPresent()) {
                        return OptionalInt.empty();
                    }
                }
            } else if (equals > 0) {
                return OptionalInt.empty();
            }
        }
        return OptionalInt.empty();
    }

    @Override
    public Integer call() throws Exception {
        int maxBytes = given(WrapOption.MAX_MESSAGE_BYTES).map(Integer.class::cast)
                .orElse(MaxMessageBytesOption.DEFAULT);
        if (maxBytes < 1024) {
            System.err.println("warden wrap: --max-message-bytes must be at least 1024, got " + maxBytes);
            return 2;
        }
        Map<String, Boolean> kept = new LinkedHashMap<>();
        for (Object tool : given(WrapOption.KEEP_CREDENTIALS_OF).map(List.class::cast).orElse(List.of())) {
            kept.put((String) tool, false);
        }
        Upstream upstream;
        Retention incidentsKept;
        Retention auditKept;
        try {
            incidentsKept = retention(Retention.DEFAULT, text(WrapOption.INCIDENTS_MAX_SIZE).orElse(null),
                    text(WrapOption.INCIDENTS_MAX_AGE).orElse(null), "--incidents-max-");
            auditKept = retention(Retention.DEFAULT, text(WrapOption.AUDIT_MAX_SIZE).orElse(null),
                    text(WrapOption.AUDIT_MAX_AGE).orElse(null), "--audit-max-");
            upstream = Upstream.stdio(text(WrapOption.NAME).orElseGet(() -> nameOf(command)), command,
                            Map.of(), maxBytes).toBuilder()
                    .timeout(GatewayConfig.duration(text(WrapOption.TIMEOUT).orElseThrow(), "--timeout"))
                    .policy(Policy.parse(text(WrapOption.POLICY).orElseThrow()))
                    .redactSuccessfulResults(!on(WrapOption.KEEP_CREDENTIALS))
                    .redactResultsOf(kept)
                    .pii(on(WrapOption.REDACT_PII)).build();
        } catch (IllegalArgumentException | ConfigException e) {
            // A value of the right type but not a usable one (--timeout soon, --policy lax): said, not a stack trace.
            System.err.println("warden wrap: " + e.getMessage());
            return 2;
        }
        IncidentSink log = IncidentLogs.besideTheStore(given(WrapOption.INCIDENT_LOG).map(Path.class::cast),
                incidentsKept);
        Path incidents = DataDir.incidents(given(WrapOption.DATA_DIR).map(Path.class::cast).orElse(null));
        try (Prestarted server = Prestarted.claim(command, maxBytes, Upstream.stderrLog(upstream.name()),
                upstream.connector());
             FileIncidentStore store = FileIncidentStore.open(incidents, incidentsKept);
             FileAuditLog audit = FileAuditLog.open(incidents.resolveSibling("audit"), auditKept,
                     java.time.Clock.systemUTC())) {
            // Launched: the command line the user wrote (its directories are published to the caller)
            try (Gateway gateway = Gateway.builder()
                    .upstream(upstream.toBuilder().connector(new Upstream.Launched(command, server)).build())
                    .incidents(IncidentSink.all(store, log))
                    .audit(audit, on(WrapOption.FAIL_CLOSED)).maxMessageBytes(maxBytes).build()) {
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
