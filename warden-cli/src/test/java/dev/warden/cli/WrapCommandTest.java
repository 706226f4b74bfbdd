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

        assertThat(wrap.given(WrapOption.NAME)).contains("files");
        assertThat(wrap.given(WrapOption.TIMEOUT)).contains("5s");
        assertThat(wrap.given(WrapOption.REDACT_PII)).contains(true);
        assertThat(wrap.command).containsExactly("node", "server.js");
    }

    @Test
    void anOptionNotGivenHasItsInitialValue() {
        WrapCommand wrap = parsed("wrap", "--name", "files", "node", "server.js");

        assertThat(wrap.given(WrapOption.TIMEOUT)).contains("60s");
        assertThat(wrap.given(WrapOption.POLICY)).contains("redact");
        assertThat(wrap.given(WrapOption.FAIL_CLOSED)).contains(false);
        assertThat(wrap.given(WrapOption.KEEP_CREDENTIALS_OF)).contains(List.of());
        assertThat(wrap.given(WrapOption.DATA_DIR)).isEmpty();
        assertThat(WrapSpec.parsed(new String[] {"wrap", "node", "server.js"}).orElseThrow()
                .given(WrapOption.TIMEOUT)).contains("60s");
    }

    @Test
    void wordsAfterTheCommandAreTheServersEvenWhenTheyLookLikeWraps() {
        WrapCommand wrap = parsed("wrap", "--name", "a", "server", "--name", "b", "--help", "--", "x");

        assertThat(wrap.given(WrapOption.NAME)).contains("a");
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
        for (OptionSpec option : Warden.commandLine(new String[] {"wrap"}).getSubcommands().get("wrap")
                .getCommandSpec().options()) {
            if (option.usageHelp() || option.versionHelp()) {
                continue;
            }
            (option.arity().max() > 0 ? values : flags).addAll(List.of(option.names()));
        }

        assertThat(WrapOptionTest.table(true)).isEqualTo(values);
        assertThat(WrapOptionTest.table(false)).isEqualTo(flags);
    }

    // ---- the fast paths: the table's reader, then wrap's spec alone, exactly as warden's whole command line reads ----

    /** What warden's whole command line makes of these arguments, as the values of the command it fills. */
    private static List<Object> picocli(String... args) {
        return fields(parsed(args));
    }

    private static List<Object> fields(WrapCommand w) {
        List<Object> fields = new java.util.ArrayList<>();
        for (WrapOption option : WrapOption.values()) {
            fields.add(w.given(option).map(String::valueOf).orElse("(none)"));
        }
        fields.add(w.command);
        return fields;
    }

    /** The usual command lines: the table's reader (before picocli) takes them, as picocli reads them. */
    private static List<String[]> usual(Path argFile) {
        return List.of(
                // @ words are arguments on every path: picocli's @FILE expansion is off
                new String[] {"wrap", "--", "x", "@" + argFile},
                new String[] {"wrap", "--", "x", "@@y"},
                new String[] {"wrap", "--", "npx", "-y", "@modelcontextprotocol/server-everything"},
                new String[] {"wrap", "--name", "crm", "--timeout=5m", "--policy", "strict", "--fail-closed", "--",
                        "node", "server.js", "--port", "1"},
                new String[] {"wrap", "--keep-credentials-in-results", "--redact-pii", "--data-dir", "/tmp/x",
                        "--incident-log=/tmp/i.jsonl", "--max-message-bytes", "65536", "--", "sh", "-c", "cat --"},
                new String[] {"wrap", "--name=", "--", "x"},
                new String[] {"wrap", "--incidents-max-size", "64MiB", "--incidents-max-age=3d", "--audit-max-size",
                        "1GiB", "--audit-max-age", "90d", "--", "x"},
                new String[] {"wrap", "--name=a=b", "--", "x", "--", "y"},
                new String[] {"wrap", "--keep-credentials-in-results-of", "a", "--keep-credentials-in-results-of=b",
                        "--", "x"});
    }

    /** Read by picocli (wrap's spec alone), not by the table's reader: picocli's own forms and @ words. */
    private static List<String[]> unusual(Path argFile) {
        return List.of(
                new String[] {"wrap", "node", "server.js"},
                new String[] {"wrap", "--fail-closed=false", "--", "x"},
                new String[] {"wrap", "--max-message-bytes", "010", "--", "x"},
                new String[] {"wrap", "@" + argFile, "--", "x"});
    }

    /** What neither fast path takes: help, and what picocli explains under warden's own name. */
    private static final List<String[]> EXPLAINED = List.of(
            new String[] {"wrap", "--help"},
            new String[] {"wrap", "-h", "--", "x"},
            new String[] {"wrap", "-V", "--", "x"},
            new String[] {"wrap", "--"},
            new String[] {"wrap", "--bogus", "--", "x"},
            new String[] {"wrap", "--name", "a", "--name", "b", "--", "x"},
            new String[] {"wrap", "--name", "--policy", "--", "x"},
            new String[] {"wrap", "--max-message-bytes", "lots", "--", "x"},
            new String[] {"wrap", "--timeout", "--", "x"},
            new String[] {"demo", "--", "x"});

    @Test
    void readsWhatPicocliReadsTheSameWay() throws Exception {
        for (String[] args : usual(Files.writeString(dir.resolve("args"), "--name x"))) {
            Optional<WrapCommand> mine = WrapArguments.read(args);
            assertThat(mine).as(String.join(" ", args)).isPresent();
            assertThat(fields(mine.get())).as(String.join(" ", args)).isEqualTo(picocli(args));
        }
    }

    @Test
    void wrapsSpecAloneReadsWhatWardensWholeCommandLineReads() throws Exception {
        Path argFile = Files.writeString(dir.resolve("args"), "--name x");
        List<String[]> cases = new java.util.ArrayList<>(usual(argFile));
        cases.addAll(unusual(argFile));
        for (String[] args : cases) {
            Optional<WrapCommand> spec = WrapSpec.parsed(args);
            assertThat(spec).as(String.join(" ", args)).isPresent();
            assertThat(fields(spec.get())).as(String.join(" ", args)).isEqualTo(picocli(args));
        }
    }

    @Test
    void leavesToPicocliWhatItExplainsOrReadsDifferently() throws Exception {
        List<String[]> cases = new java.util.ArrayList<>(EXPLAINED);
        cases.addAll(unusual(Files.writeString(dir.resolve("args"), "--name x")));
        for (String[] args : cases) {
            assertThat(WrapArguments.read(args)).as(String.join(" ", args)).isEmpty();
        }
        for (String[] args : EXPLAINED) {
            assertThat(WrapSpec.parsed(args)).as(String.join(" ", args)).isEmpty();
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
