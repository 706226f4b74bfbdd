package dev.warden.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.auth.ApiKeys;
import dev.warden.auth.ResourceServer;
import dev.warden.core.identity.Credentials;
import dev.warden.core.identity.Verdict;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code warden keys new}: the entry it prints, pasted under {@code keys:}, grants the key exactly
 * the scopes asked for, whatever characters RFC 6749 lets a scope hold; what would be read as
 * something else is refused, not printed.
 */
class KeysCommandTest {

    @TempDir
    Path dir;

    private record Run(int exit, String stdout, String stderr) {
    }

    private static Run keysNew(String... options) {
        String[] args = Stream.concat(Stream.of("keys", "new"), Stream.of(options)).toArray(String[]::new);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine line = Warden.commandLine(args);
        line.setOut(new PrintWriter(out, true));
        line.setErr(new PrintWriter(err, true));
        int exit = line.execute(args);
        return new Run(exit, out.toString(), err.toString());
    }

    /** The scopes the gateway gives the minted key once its entry is in the keys file. */
    private List<String> grantedScopes(Run run) throws Exception {
        String entry = run.stderr().lines().filter(l -> l.strip().startsWith("- ")).findFirst().orElseThrow();
        Path file = dir.resolve("keys.yaml");
        Files.writeString(file, "keys:\n" + entry + "\n");
        ResourceServer server = ResourceServer.custom().apiKeys(ApiKeys.fromFile(file)).build();
        Verdict v = server.authenticate(new Credentials(Optional.of("Bearer " + run.stdout().strip()),
                Optional.empty()), URI.create("http://127.0.0.1/mcp"));
        return ((Verdict.Admitted) v).caller().scopes().stream().sorted().toList();
    }

    @Test
    void theEntryGrantsExactlyTheScopesAskedFor() throws Exception {
        Run run = keysNew("--name", "ci-bot", "--scope", "mcp:tools", "--scope", "mcp:read");

        assertThat(run.exit()).isZero();
        assertThat(grantedScopes(run)).containsExactly("mcp:read", "mcp:tools");
    }

    @Test
    void scopesHoldingYamlSyntaxReadBackAsThemselves() throws Exception {
        List<String> odd = List.of("a]", "{x}", "#c", "&anchor", "*alias", "'q'", "x: y", "-", "[", "!tag", "%p", "@at",
                "`b`", "|", ">", "?");
        for (String scope : odd) {
            if (scope.contains(" ")) {
                continue; // not a scope token: refused below
            }
            Run run = keysNew("--name", "odd", "--scope", scope);

            assertThat(run.exit()).as(scope).isZero();
            assertThat(grantedScopes(run)).as(scope).containsExactly(scope);
        }
    }

    @Test
    void aCommaInAScopeIsRefusedNotSplitIntoScopesNobodyAskedFor() {
        Run run = keysNew("--name", "ci-bot", "--scope", "mcp:tools,mcp:admin");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.stdout()).isEmpty();
        assertThat(run.stderr()).contains("mcp:tools,mcp:admin").contains("repeat --scope");
    }

    @Test
    void aScopeOutsideRfc6749sGrammarIsRefusedNamingIt() {
        for (String bad : List.of("two words", "quo\"te", "back\\slash", "caf\u00e9", "")) {
            Run run = keysNew("--name", "ci-bot", "--scope", bad);

            assertThat(run.exit()).as(bad).isEqualTo(2);
            assertThat(run.stdout()).as(bad).isEmpty();
            assertThat(run.stderr()).as(bad).contains("RFC 6749");
        }
    }
}
