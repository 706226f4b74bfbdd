package dev.warden.cli;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * {@code warden wrap} as picocli sees it, built in code from {@link WrapOption}'s table. Not from
 * annotations: picocli models an annotated command by reflection and makes a class per annotation
 * at run time, which cost a quarter of wrap's cold start, before the server could be reached.
 */
final class WrapSpec {

    private WrapSpec() {
    }

    /** The command, its options bound to {@code wrap}'s values. */
    static CommandSpec of(WrapCommand wrap) {
        CommandSpec spec = CommandSpec.wrapWithoutInspection(wrap).name("wrap");
        spec.usageMessage().description(
                "Runs COMMAND as an MCP server and stands between it and the client on stdin/stdout: what the "
                        + "server leaks in errors and logs is sanitized, every failure gets a code and a ref "
                        + "(`warden incidents show REF` shows the original), and a crashing or hanging server "
                        + "cannot take the client down.",
                "Everything from COMMAND on is the server's, options included; `--` before it is optional.",
                "Example: warden wrap npx -y @modelcontextprotocol/server-everything");
        // picocli's standard help options, as mixinStandardHelpOptions words them (without its reflection).
        spec.addOption(OptionSpec.builder("-h", "--help").usageHelp(true)
                .description("Show this help message and exit.").build());
        spec.addOption(OptionSpec.builder("-V", "--version").versionHelp(true)
                .description("Print version information and exit.").build());
        for (WrapOption option : WrapOption.values()) {
            OptionSpec.Builder builder = OptionSpec.builder(option.optionName).description(option.description)
                    .type(option.kind == WrapOption.Kind.FLAG ? boolean.class : option.kind.type)
                    .getter(new Bound(wrap, Optional.of(option))).setter(new Bound(wrap, Optional.of(option)));
            if (option.takesValue()) {
                builder.paramLabel(option.label);
            }
            if (option.kind == WrapOption.Kind.REPEATED) {
                builder.auxiliaryTypes(String.class);
            }
            spec.addOption(builder.build());
        }
        spec.addPositional(PositionalParamSpec.builder().paramLabel("COMMAND").arity("1..*").required(true)
                .type(List.class).auxiliaryTypes(String.class)
                .description("The MCP server to run and its arguments, as they are (optionally after --).")
                .getter(new Bound(wrap, Optional.empty())).setter(new Bound(wrap, Optional.empty())).build());
        return spec;
    }

    /**
     * The command line for wrap alone: @FILE arguments are arguments, and the first word that is not
     * wrap's option starts the server's command (see {@link WrapCommand#commandStart}).
     */
    static CommandLine commandLine(WrapCommand wrap) {
        CommandLine line = new CommandLine(of(wrap));
        line.setExpandAtFiles(false);
        line.setStopAtPositional(true);
        return line;
    }

    /**
     * The command for {@code wrap …} when picocli reads it without a complaint and it asks for no
     * help; else empty, and {@code warden}'s whole command line reads the arguments again (and says
     * what is wrong with them, under its own name).
     */
    static Optional<WrapCommand> parsed(String[] args) {
        if (args.length < 2 || !args[0].equals("wrap")) {
            return Optional.empty();
        }
        WrapCommand wrap = new WrapCommand();
        try {
            CommandLine line = commandLine(wrap);
            CommandLine.ParseResult result = line.parseArgs(Arrays.copyOfRange(args, 1, args.length));
            return result.isUsageHelpRequested() || result.isVersionHelpRequested() ? Optional.empty()
                    : Optional.of(wrap);
        } catch (CommandLine.ParameterException e) {
            return Optional.empty();
        }
    }

    /** An option's value (or, without one, the server's command) in the command, for picocli to read and set. */
    private static final class Bound implements CommandLine.Model.IGetter, CommandLine.Model.ISetter {
        private final WrapCommand wrap;
        private final Optional<WrapOption> option;

        Bound(WrapCommand wrap, Optional<WrapOption> option) {
            this.wrap = wrap;
            this.option = option;
        }

        @Override
        @SuppressWarnings("unchecked")
        public <T> T get() {
            return (T) (option.isPresent() ? wrap.given(option.get()).orElse(null) : wrap.command);
        }

        @Override
        @SuppressWarnings("unchecked")
        public <T> T set(T value) {
            T old = get();
            if (option.isPresent()) {
                wrap.give(option.get(), value);
            } else {
                wrap.command = (List<String>) value;
            }
            return old;
        }
    }
}
