package dev.warden.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code warden} command. */
@Command(name = "warden", mixinStandardHelpOptions = true, versionProvider = Warden.Version.class,
        description = "Safe, useful errors for the Model Context Protocol.",
        subcommands = {DemoCommand.class, WrapCommand.class, GatewayCommand.class, SanitizeCommand.class, IncidentsCommand.class, ConformanceClientCommand.class,
                CommandLine.HelpCommand.class})
public final class Warden {

    public static void main(String[] args) {
        int code = new CommandLine(new Warden()).execute(args);
        System.exit(code);
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = Warden.class.getPackage().getImplementationVersion();
            return new String[] {"warden " + (v == null ? "dev" : v)};
        }
    }
}
