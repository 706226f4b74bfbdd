package dev.warden.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class WrapCommandTest {

    @TempDir
    Path dir;

    /** What picocli makes of these arguments, as the fields of the command it fills. */
    private static List<Object> picocli(String... args) {
        WrapCommand wrap = new WrapCommand();
        CommandLine line = new CommandLine(new Warden());
        line.addSubcommand("wrap", wrap);
        line.parseArgs(args);
        return fields(wrap);
    }

    private static List<Object> fields(WrapCommand w) {
        return java.util.Arrays.asList(w.name, w.timeout, w.policy, w.keepCredentials, w.pii, w.failClosed, w.dataDir,
                w.incidentLog, w.maxMessageBytes, w.command);
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
}
