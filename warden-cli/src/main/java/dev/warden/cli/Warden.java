package dev.warden.cli;

import java.util.List;
import java.util.Optional;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code warden} command. */
@Command(name = "warden", mixinStandardHelpOptions = true, versionProvider = Warden.Version.class,
        description = "Safe, useful errors for the Model Context Protocol.")
public final class Warden {

    /** The subcommands, in the order help lists them. */
    private static final List<String> COMMANDS =
            List.of("demo", "wrap", "gateway", "audit", "keys", "sanitize", "incidents", "conformance-client",
                    "help");

    // A switch rather than a table of constructor references: the JVM's start-up cache cannot hold
    // picocli's (Java 5) classes, and a cached lambda that names one breaks the cache's creation.
    private static Object command(String name) {
        return switch (name) {
            case "demo" -> new DemoCommand();
            case "wrap" -> WrapSpec.of(new WrapCommand());
            case "gateway" -> new GatewayCommand();
            case "keys" -> new KeysCommand();
            case "audit" -> new AuditCommand();
            case "sanitize" -> new SanitizeCommand();
            case "incidents" -> new IncidentsCommand();
            case "conformance-client" -> new ConformanceClientCommand();
            case "help" -> new CommandLine.HelpCommand();
            default -> throw new IllegalArgumentException("no command " + name);
        };
    }

    public static void main(String[] args) {
        HttpServerLimits.apply(System.getProperties());
        if (args.length > 0 && (args[0].equals("wrap") || args[0].equals("gateway"))) {
            EarlyInit.start();
        }
        Prestarted.startEarly(args);
        Telemetry telemetry;
        try {
            telemetry = Telemetry.install(args.length > 0 ? args[0] : "", System.getenv(), System.getProperties(), true);
        } catch (IllegalArgumentException e) {
            System.err.println("warden: " + e.getMessage());
            Prestarted.discardUnclaimed();
            System.exit(2);
            return;
        }
        // wrap's usual command line by its table alone (no picocli classes loaded), else by picocli with
        // wrap alone modelled; anything neither takes is read again below, and explained.
        Optional<WrapCommand> wrap = WrapArguments.read(args);
        if (wrap.isEmpty()) {
            wrap = WrapSpec.parsed(args);
        }
        // The gateway's usual command line likewise (GatewayArguments).
        Optional<GatewayCommand> gateway = wrap.isPresent() ? Optional.empty() : GatewayArguments.read(args);
        int code = wrap.isPresent() ? run(wrap.get())
                : gateway.isPresent() ? run(gateway.get()) : commandLine(args).execute(args);
        // The command returned (a drained gateway on SIGTERM too): its last spans and metrics go out now.
        telemetry.close();
        Prestarted.discardUnclaimed();
        System.exit(code);
    }

    private static final System.Logger LOG = System.getLogger(Warden.class.getName());

    /**
     * Runs a command as picocli's {@code execute} would, exit code 1 on an exception; the exception
     * goes to the log (stderr, structured when WARDEN_LOG_FORMAT=json), never as a bare stack print.
     */
    private static int run(java.util.concurrent.Callable<Integer> command) {
        try {
            Integer code = command.call();
            return code == null ? 0 : code;
        } catch (Exception e) {
            LOG.log(System.Logger.Level.ERROR, "warden: the command failed", e);
            return 1;
        }
    }

    /**
     * The command line for these arguments. When they name a subcommand, only that one is
     * modelled: picocli reflects over every registered command at start-up, and its classes
     * (Java 5 class files) cannot go into the JVM's start-up cache, so each one costs {@code
     * warden wrap}'s cold start. Anything else (help, a typo to suggest a fix for) gets them all.
     */
    static CommandLine commandLine(String[] args) {
        CommandLine line = new CommandLine(new Warden());
        // Each built as a command line of its own: picocli runs a command's model transformer (how it
        // words a shared option, see OwnWording) when it builds one, not for a bare object added later.
        if (args.length > 0 && !args[0].equals("help") && COMMANDS.contains(args[0])) {
            line.addSubcommand(args[0], new CommandLine(command(args[0])));
        } else {
            for (String name : COMMANDS) {
                line.addSubcommand(name, new CommandLine(command(name)));
            }
        }
        // An argument starting with @ is an argument (npx @scope/server), never a file to read arguments from.
        line.setExpandAtFiles(false);
        CommandLine wrap = line.getSubcommands().get("wrap");
        if (wrap != null) {
            // wrap's first word that is not its own option starts the server's command: what follows is
            // the server's, -y and --help included (see WrapCommand.commandStart); as WrapSpec.commandLine.
            wrap.setStopAtPositional(true);
        }
        return line;
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = Warden.class.getPackage().getImplementationVersion();
            return new String[] {"warden " + (v == null ? "dev" : v)};
        }
    }
}
