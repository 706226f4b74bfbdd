package dev.warden.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
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

    // ---- the fast path: the usual command line read without picocli, exactly as picocli reads it ----

    /** What picocli makes of these arguments, as the fields of the command it fills. */
    private static List<Object> picocli(String... args) {
        WrapCommand wrap = new WrapCommand();
        CommandLine line = new CommandLine(new Warden());
        line.addSubcommand("wrap", wrap);
        line.parseArgs(args);
        return fields(wrap);
    }

    private static List<Object> fields(WrapCommand w) {
        return java.util.Arrays.asList(w.name, w.timeout, w.policy, w.keepCredentials, w.pii, w.failClosed,
                w.serve.dataDir.dataDir, w.serve.incidentLog.incidentLog, w.serve.maxMessageBytes.orDefault(),
                w.keepCredentialsOf, w.command, String.valueOf(w.incidentsMaxSize),
                String.valueOf(w.incidentsMaxAge), String.valueOf(w.auditMaxSize), String.valueOf(w.auditMaxAge));
    }

    @Test
    void readsWhatPicocliReadsTheSameWay() {
        List<String[]> cases = List.of(
                new String[] {"wrap", "--", "npx", "-y", "@modelcontextprotocol/server-everything"},
                new String[] {"wrap", "--name", "crm", "--timeout=5m", "--policy", "strict", "--fail-closed", "--",
                        "node", "server.js", "--port", "1"},
                new String[] {"wrap", "--keep-credentials-in-results", "--redact-pii", "--data-dir", "/tmp/x",
                        "--incident-log=/tmp/i.jsonl", "--max-message-bytes", "65536", "--", "sh", "-c", "cat --"},
                new String[] {"wrap", "--name=", "--", "x"},
                new String[] {"wrap", "--incidents-max-size", "64MiB", "--incidents-max-age=3d", "--audit-max-size",
                        "1GiB", "--audit-max-age", "90d", "--", "x"},
                new String[] {"wrap", "--name=a=b", "--", "x", "--", "y"});
        for (String[] args : cases) {
            Optional<WrapCommand> mine = WrapCommand.withoutPicocli(args);
            assertThat(mine).as(String.join(" ", args)).isPresent();
            assertThat(fields(mine.get())).as(String.join(" ", args)).isEqualTo(picocli(args));
        }
    }

    @Test
    void leavesToPicocliWhatItExplainsOrReadsDifferently() throws Exception {
        Path argFile = Files.writeString(dir.resolve("args"), "--name x");
        List<String[]> cases = List.of(
                new String[] {"wrap", "--help"},
                new String[] {"wrap", "-h", "--", "x"},
                new String[] {"wrap", "node", "server.js"},
                new String[] {"wrap", "--"},
                new String[] {"wrap", "--bogus", "--", "x"},
                new String[] {"wrap", "--name", "a", "--name", "b", "--", "x"},
                new String[] {"wrap", "--name", "--policy", "--", "x"},
                new String[] {"wrap", "--max-message-bytes", "lots", "--", "x"},
                new String[] {"wrap", "--fail-closed=false", "--", "x"},
                new String[] {"wrap", "--timeout", "--", "x"},
                new String[] {"wrap", "@" + argFile, "--", "x"},
                new String[] {"wrap", "--", "x", "@" + argFile},
                new String[] {"wrap", "--", "x", "@@y"},
                new String[] {"demo", "--", "x"});
        for (String[] args : cases) {
            assertThat(WrapCommand.withoutPicocli(args)).as(String.join(" ", args)).isEmpty();
        }
    }

    @Test
    void theStoresRetentionComesFromItsFlagsOverTheDefault() {
        dev.warden.core.segment.Retention r = WrapCommand.retention(dev.warden.core.segment.Retention.DEFAULT,
                "64MiB", "3d", "--incidents-max-");
        assertThat(r.maxBytes()).isEqualTo(64L * 1024 * 1024);
        assertThat(r.maxAge()).isEqualTo(java.time.Duration.ofDays(3));
        assertThat(WrapCommand.retention(dev.warden.core.segment.Retention.DEFAULT, null, null, "--audit-max-"))
                .isEqualTo(dev.warden.core.segment.Retention.DEFAULT);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> WrapCommand.retention(
                dev.warden.core.segment.Retention.DEFAULT, "lots", null, "--audit-max-"))
                .hasMessageContaining("--audit-max-size");
    }
}
