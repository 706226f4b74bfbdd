package dev.warden.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/** How {@code warden wrap}'s arguments divide between wrap and the server's command. */
class WrapCommandTest {

    @TempDir
    Path dir;

    private static WrapCommand parsed(String... args) {
        CommandLine line = Warden.commandLine(args);
        line.parseArgs(args);
        return line.getSubcommands().get("wrap").getCommand();
    }

    /** The server's command as the early start finds it. */
    private static List<String> startedEarly(String... args) {
        OptionalInt start = WrapCommand.commandStart(args, 1);
        return start.isPresent() ? List.of(args).subList(start.getAsInt(), args.length) : List.of();
    }

    @Test
    void theServersCommandNeedsNoSeparator() {
        assertThat(parsed("wrap", "npx", "-y", "@modelcontextprotocol/server-everything").command)
                .containsExactly("npx", "-y", "@modelcontextprotocol/server-everything");
    }

    @Test
    void theSeparatorStillWorks() {
        assertThat(parsed("wrap", "--", "npx", "-y", "server-x").command).containsExactly("npx", "-y", "server-x");
    }

    @Test
    void wrapsOptionsBeforeTheCommandAreWraps() {
        WrapCommand wrap = parsed("wrap", "--name", "files", "--timeout=5s", "--redact-pii", "node", "server.js");

        assertThat(wrap.name).isEqualTo("files");
        assertThat(wrap.timeout).isEqualTo("5s");
        assertThat(wrap.pii).isTrue();
        assertThat(wrap.command).containsExactly("node", "server.js");
    }

    @Test
    void wordsAfterTheCommandAreTheServersEvenWhenTheyLookLikeWraps() {
        WrapCommand wrap = parsed("wrap", "--name", "a", "server", "--name", "b", "--help", "--", "x");

        assertThat(wrap.name).isEqualTo("a");
        assertThat(wrap.command).containsExactly("server", "--name", "b", "--help", "--", "x");
    }

    @Test
    void anArgumentStartingWithAtIsNotReadAsAFile() throws Exception {
        Path file = Files.writeString(dir.resolve("args"), "--evil\n");

        assertThat(parsed("wrap", "npx", "@" + file).command).containsExactly("npx", "@" + file);
    }

    @Test
    void anUnknownOptionBeforeTheCommandIsRefused() {
        String[] args = {"wrap", "--no-such-option", "npx", "-y", "x"};

        assertThatThrownBy(() -> parsed(args)).isInstanceOf(CommandLine.UnmatchedArgumentException.class);
        assertThat(WrapCommand.commandStart(args, 1)).isEmpty();
    }

    @Test
    void theEarlyStartFindsTheCommandWhereTheParserDoes() {
        List<String[]> cases = List.of(
                new String[] {"wrap", "npx", "-y", "pkg"},
                new String[] {"wrap", "--", "npx", "-y", "pkg"},
                new String[] {"wrap", "--name", "x", "npx", "-y", "pkg"},
                new String[] {"wrap", "--name=x", "--fail-closed", "npx", "--", "pkg"},
                new String[] {"wrap", "--data-dir", "/tmp/d", "--", "--odd-program"},
                new String[] {"wrap", "--policy", "strict", "--max-message-bytes", "4096", "sh", "-c", "cat"});
        for (String[] args : cases) {
            assertThat(startedEarly(args)).as(Arrays.toString(args)).isEqualTo(parsed(args).command);
        }
    }

    @Test
    void nothingStartsEarlyForArgumentsTheParserRefuses() {
        for (String[] args : List.of(new String[] {"wrap", "--timeout", "--", "server"},
                new String[] {"wrap", "--name", "--fail-closed", "server"})) {
            assertThatThrownBy(() -> parsed(args)).as(Arrays.toString(args))
                    .isInstanceOf(CommandLine.ParameterException.class);
            assertThat(startedEarly(args)).as(Arrays.toString(args)).isEmpty();
        }
    }

    @Test
    void nothingStartsEarlyForHelpOrWithoutACommand() {
        assertThat(startedEarly("wrap", "--help", "npx")).isEmpty();
        assertThat(startedEarly("wrap", "--name", "x")).isEmpty();
        assertThat(startedEarly("wrap", "--")).isEmpty();
    }

    @Test
    void theEarlyStartKnowsEveryOptionOfWrap() {
        Set<String> values = new HashSet<>();
        Set<String> flags = new HashSet<>();
        for (OptionSpec option : new CommandLine(new WrapCommand()).getCommandSpec().options()) {
            if (option.usageHelp() || option.versionHelp()) {
                continue;
            }
            (option.arity().max() > 0 ? values : flags).addAll(List.of(option.names()));
        }

        assertThat(WrapCommand.VALUE_OPTIONS).isEqualTo(values);
        assertThat(WrapCommand.FLAG_OPTIONS).isEqualTo(flags);
    }
}
