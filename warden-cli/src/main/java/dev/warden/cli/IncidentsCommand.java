package dev.warden.cli;

import dev.warden.core.error.ErrorCode;
import dev.warden.core.error.Ref;
import dev.warden.core.incident.Incident;
import dev.warden.core.incident.IncidentJson;
import dev.warden.core.json.Json;
import dev.warden.core.sanitize.detection.Finding;
import java.io.PrintWriter;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code warden incidents show|list}: the operator's view of the incident store. */
@Command(name = "incidents", mixinStandardHelpOptions = true,
        description = "Look up incidents (the originals behind the refs that clients see).",
        subcommands = {IncidentsCommand.Show.class, IncidentsCommand.ListIncidents.class, AuditLogCommand.class})
final class IncidentsCommand {

    /** Here the data directory is what is read, not where incidents are kept. */
    static final class Wording implements CommandLine.IModelTransformer {
        @Override
        public CommandLine.Model.CommandSpec transform(CommandLine.Model.CommandSpec command) {
            return OwnWording.apply(command, Map.of(DataDirOption.NAME, "Warden's data directory (default: "
                    + "$WARDEN_DATA_DIR, $XDG_DATA_HOME/warden or ~/.local/share/warden); incidents are in DIR/incidents."));
        }
    }

    /** What both subcommands have: the store they read, and the command line's out and err they print to. */
    abstract static class Reader implements Callable<Integer> {
        @CommandLine.Mixin
        DataDirOption store = new DataDirOption();

        @CommandLine.Mixin
        StoreSource source = new StoreSource();

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public final Integer call() {
            try {
                return run(spec.commandLine().getOut(), spec.commandLine().getErr());
            } catch (dev.warden.gateway.config.ConfigException | java.io.UncheckedIOException e) {
                spec.commandLine().getErr().println("warden incidents: " + e.getMessage());
                return 2;
            }
        }

        /** The exit status. */
        abstract int run(PrintWriter out, PrintWriter err);
    }

    @Command(name = "show", mixinStandardHelpOptions = true, description = "Print one incident by its ref.",
            modelTransformer = Wording.class)
    static final class Show extends Reader {
        @Parameters(paramLabel = "REF", description = "The ref a client received, e.g. ref_abcdefghijkmnpqr.")
        String ref;

        @Option(names = "--json", description = "Print the stored JSON record.")
        boolean json;

        @Override
        int run(PrintWriter out, PrintWriter err) {
            if (!Ref.isWellFormed(ref)) {
                err.println("warden incidents show: not a ref (expected ref_ and 16 characters of a-k, m-z, 2-9)");
                return 2;
            }
            try (StoreSource.Opened incidents = source.open(store)) {
                Optional<Incident> found = incidents.store().find(new Ref(ref));
                if (found.isEmpty()) {
                    err.println("warden incidents show: no incident " + ref + " in " + incidents.where()
                            + " (recorded under another data directory, or removed past the store's retention,"
                            + " 256 MiB and 14 days by default)");
                    return 1;
                }
                if (json) {
                    out.println(IncidentJson.toJson(found.get()).toPrettyString());
                } else {
                    print(out, found.get());
                }
                out.flush();
                return 0;
            }
        }

        /** Every field, each as a terminal may show it (see {@link Printable}). */
        static void print(PrintWriter out, Incident incident) {
            out.println("ref:       " + incident.ref());
            out.println("time:      " + incident.time());
            out.println("code:      " + incident.code());
            out.println("method:    " + Printable.line(incident.method()));
            incident.tool().ifPresent(t -> out.println("tool:      " + Printable.line(t)));
            incident.upstream().ifPresent(u -> out.println("upstream:  " + Printable.line(u)));
            incident.reason().ifPresent(r -> out.println("reason:    " + Printable.line(r)));
            incident.subject().ifPresent(c -> out.println("subject:   " + Printable.line(c)));
            incident.clientId().ifPresent(c -> out.println("client id: " + Printable.line(c)));
            incident.arguments().ifPresent(a -> {
                out.println("arguments:");
                indented(out, pretty(a));
            });
            incident.original().ifPresent(o -> {
                out.println("original:");
                indented(out, o);
            });
            if (!incident.findings().isEmpty()) {
                out.println("findings:");
                for (Finding f : incident.findings()) {
                    out.printf("  %s/%s [%d, %d)%n", f.category().label(), Printable.line(f.kind()), f.start(), f.end());
                }
            }
            if (!incident.chain().isEmpty()) {
                out.println("exception:");
                String prefix = "  ";
                for (Incident.ThrowableRecord record : incident.chain()) {
                    out.println(prefix + Printable.line(record.type() + record.message().map(m -> ": " + m).orElse("")));
                    record.stack().forEach(frame -> out.println("      at " + Printable.line(frame)));
                    prefix = "  Caused by: ";
                }
            }
        }

        private static void indented(PrintWriter out, String text) {
            Printable.lines(text).lines().forEach(line -> out.println("  " + line));
        }

        /** Arguments are JSON text kept on one line: shown indented, unless they do not parse. */
        private static String pretty(String arguments) {
            try {
                return Json.mapper().readTree(arguments).toPrettyString();
            } catch (RuntimeException e) {
                return arguments;
            }
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "List recent incidents, newest first.",
            modelTransformer = Wording.class)
    static final class ListIncidents extends Reader {
        @CommandLine.Mixin
        SinceOption since = new SinceOption();

        @Option(names = "--code", paramLabel = "CODE", description = "Only this code, e.g. INTERNAL_ERROR.")
        String code;

        @Option(names = "--limit", defaultValue = "100", description = "At most this many (default: ${DEFAULT-VALUE}).")
        int limit;

        @Override
        int run(PrintWriter out, PrintWriter err) {
            Instant now = Instant.now();
            Instant start;
            Optional<Instant> end;
            Optional<ErrorCode> filter = Optional.empty();
            try {
                start = since.start(now);
                end = since.end(now);
                if (code != null) {
                    filter = Optional.of(ErrorCode.valueOf(code.toUpperCase(Locale.ROOT)));
                }
            } catch (IllegalArgumentException e) {
                err.println("warden incidents list: " + (code != null && !isCode(code)
                        ? "--code must be one of " + List.of(ErrorCode.values())
                        : SinceOption.usage()));
                return 2;
            }
            try (StoreSource.Opened incidents = source.open(store)) {
                List<Incident> found = incidents.store().list(start, end, filter, limit);
                for (Incident incident : found) {
                    out.println(line(incident));
                }
                out.flush();
                return 0;
            }
        }

        /**
         * One incident on one line: when (to the second), its ref and code, the upstream, what was
         * asked (method and tool), and the gist of what went wrong.
         */
        static String line(Incident incident) {
            String asked = incident.method() + incident.tool().map(t -> " " + t).orElse("");
            return Printable.line(String.format("%s  %s  %-17s %-12s %-28s %s",
                    incident.time().truncatedTo(ChronoUnit.SECONDS), incident.ref(), incident.code(),
                    incident.upstream().orElse("-"), asked, IncidentGist.of(incident)));
        }

        private static boolean isCode(String value) {
            for (ErrorCode c : ErrorCode.values()) {
                if (c.name().equalsIgnoreCase(value)) {
                    return true;
                }
            }
            return false;
        }
    }
}
