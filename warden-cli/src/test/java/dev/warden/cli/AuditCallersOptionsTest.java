package dev.warden.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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

    @Test
    void aLoginOrAHeaderReadFromAFileStaysOutOfTheCommandLineAndTheOutput(@TempDir Path dir) throws Exception {
        Path alice = Files.writeString(dir.resolve("alice"), "alice:pw-of-alice-1\n");
        Path bob = Files.writeString(dir.resolve("bob"), "bob:pw-of-bob-2\r\nnot read\n");

        Run run = audit("--login", "@" + alice, "--login", "@" + bob, "--", "true");

        assertThat(run.exit()).as("the accounts were taken; the server then could not be audited").isEqualTo(3);
        assertThat(run.stderr()).doesNotContain("pw-of-alice-1").doesNotContain("pw-of-bob-2");

        Path key = Files.writeString(dir.resolve("key"), "X-API-Key: key-of-alice-1\n");
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        Run http = audit("--url", "http://127.0.0.1:" + port + "/mcp", "--header", "@" + key, "--header",
                "X-API-Key: key-of-bob-2");
        assertThat(http.exit()).isEqualTo(3);
        assertThat(http.stderr()).contains("connection refused").doesNotContain("key-of-alice-1");
    }

    @Test
    void aSecretFileThatCannotBeReadIsAUsageErrorNamingTheFileNotItsContent(@TempDir Path dir) throws Exception {
        Run missing = audit("--login", "@" + dir.resolve("absent"), "--login", "bob:pw2", "--", "true");
        assertThat(missing.exit()).isEqualTo(2);
        assertThat(missing.stderr()).contains("--login: cannot read the file its @ names");

        Path noColon = Files.writeString(dir.resolve("no-colon"), "alice-secret-3\n");
        Run malformed = audit("--login", "@" + noColon, "--login", "bob:pw2", "--", "true");
        assertThat(malformed.exit()).isEqualTo(2);
        assertThat(malformed.stderr()).contains("--login: expected ACCOUNT:PASSWORD").doesNotContain("alice-secret-3");

        Path empty = Files.writeString(dir.resolve("empty"), "\n");
        assertThat(audit("--login", "@" + empty, "--login", "bob:pw2", "--", "true").stderr())
                .contains("the first line of the file its @ names is empty");
    }

    @Test
    void aValueMeantLiterallyIsNeverEchoedAndIsWrittenWithTwoAts() {
        Run literal = audit("--login", "@alice:s3cret-pw-4", "--login", "bob:pw2", "--", "true");
        assertThat(literal.exit()).isEqualTo(2);
        assertThat(literal.stderr()).contains("written @@").doesNotContain("s3cret-pw-4");

        Run escaped = audit("--login", "@@alice:s3cret-pw-4", "--login", "bob:pw2", "--", "true");
        assertThat(escaped.exit()).as("taken as the account @alice; the server then could not be audited")
                .isEqualTo(3);
        assertThat(escaped.stderr()).doesNotContain("s3cret-pw-4");
    }

    @Test
    void aHeaderFileWithAByteOrderMarkReadsAndOneWithAControlCharacterIsRefusedUnquoted(@TempDir Path dir)
            throws Exception {
        Path bom = Files.writeString(dir.resolve("bom"), "\uFEFFX-API-Key: key-of-alice-5\n");
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        Run read = audit("--url", "http://127.0.0.1:" + port + "/mcp", "--header", "@" + bom);
        assertThat(read.exit()).isEqualTo(3);
        assertThat(read.stderr()).contains("connection refused").doesNotContain("key-of-alice-5");

        Path control = Files.writeString(dir.resolve("control"), "X-API-Key: key-sekret-6\u0001x\n");
        Run refused = audit("--url", "http://127.0.0.1:" + port + "/mcp", "--header", "@" + control);
        assertThat(refused.exit()).isEqualTo(2);
        assertThat(refused.stderr()).contains("holds a control character").doesNotContain("key-sekret-6");
    }
}
