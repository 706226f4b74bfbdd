package dev.warden.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The gateway's usual command line read without picocli reads as picocli reads it, or is left to picocli. */
class GatewayArgumentsTest {

    private static GatewayCommand byPicocli(String... args) {
        CommandLine line = Warden.commandLine(args);
        line.parseArgs(args);
        return line.getSubcommands().get("gateway").getCommand();
    }

    @Test
    void theUsualFormsReadAsPicocliReadsThem() {
        for (String[] args : List.of(
                new String[] {"gateway", "--config", "w.yaml"},
                new String[] {"gateway", "--config=w.yaml", "--port", "0"},
                new String[] {"gateway", "--port=8080", "--data-dir", "/tmp/d", "--config", "dir/w.yaml"})) {
            GatewayCommand fast = GatewayArguments.read(args).orElseThrow();
            GatewayCommand slow = byPicocli(args);
            assertThat(fast.config).isEqualTo(slow.config);
            assertThat(fast.port).isEqualTo(slow.port);
            assertThat(fast.serve.dataDir.dataDir).isEqualTo(slow.serve.dataDir.dataDir);
            assertThat(fast.insecureNoAuth).isEqualTo(slow.insecureNoAuth);
            assertThat(fast.drain.timeout).isEqualTo(slow.drain.timeout);
            assertThat(fast.serve.maxMessageBytes.given()).isEqualTo(slow.serve.maxMessageBytes.given());
        }
        assertThat(GatewayArguments.read(new String[] {"gateway", "--config", "w.yaml"}).orElseThrow().config)
                .isEqualTo(Path.of("w.yaml"));
    }

    @Test
    void anythingElseIsLeftToPicocli() {
        for (String[] args : List.of(
                new String[] {"gateway"},
                new String[] {"gateway", "--port", "0"},
                new String[] {"gateway", "--config", "w.yaml", "--insecure-no-auth"},
                new String[] {"gateway", "--config", "w.yaml", "--console", "127.0.0.1:0"},
                new String[] {"gateway", "--config", "a.yaml", "--config", "b.yaml"},
                new String[] {"gateway", "--config", "w.yaml", "--port", "+80"},
                new String[] {"gateway", "--config", "w.yaml", "--port", "-1"},
                new String[] {"gateway", "--config", "w.yaml", "--help"},
                new String[] {"wrap", "--config", "w.yaml"})) {
            assertThat(GatewayArguments.read(args)).as(String.join(" ", args)).isEqualTo(Optional.empty());
        }
    }
}
