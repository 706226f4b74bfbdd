package dev.warden.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** {@code warden audit}'s two-caller options: a header name given twice, or {@code --login} twice. */
class AuditCallersOptionsTest {

    private record Run(int exit, String stderr) {
    }

    private static Run audit(String... args) {
        PrintStream before = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            String[] all = new String[args.length + 1];
            all[0] = "audit";
            System.arraycopy(args, 0, all, 1, args.length);
            return new Run(Warden.commandLine(all).execute(all), err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setErr(before);
        }
    }

    @Test
    void aHeaderNameGivenThreeTimesOrOneLoginIsAUsageError() {
        assertThat(audit("--url", "http://127.0.0.1:9/mcp", "--header", "X-API-Key: a1", "--header", "X-API-Key: b2",
                "--header", "x-api-key: c3").exit()).isEqualTo(2);
        assertThat(audit("--login", "alice:pw1", "--", "node", "server.js").exit()).isEqualTo(2);
        assertThat(audit("--login", "alice", "--login", "bob:pw2", "--", "node", "server.js").exit()).isEqualTo(2);
    }

    @Test
    void twoCallersAgainstNothingExitThreeWithTheCauseAndNoKey() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }

        Run run = audit("--url", "http://127.0.0.1:" + port + "/mcp", "--header", "X-API-Key: key-of-alice-1",
                "--header", "X-API-Key: key-of-bob-2");

        assertThat(run.exit()).isEqualTo(3);
        assertThat(run.stderr()).contains("connection refused at 127.0.0.1:" + port)
                .doesNotContain("key-of-alice-1").doesNotContain("key-of-bob-2");
    }
}
