package dev.warden.cli;

import dev.warden.auth.ApiKeys;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code warden keys new --name NAME --scope SCOPE}: a new API key for a machine client. The key
 * goes to stdout, once (nothing keeps it); what the keys file needs, its SHA-256 digest, name and
 * scopes, goes to stderr as the line to add under {@code keys:}.
 */
@Command(name = "keys", mixinStandardHelpOptions = true,
        description = "Mints API keys for the gateway's auth.apiKeys file.",
        subcommands = KeysCommand.New.class)
final class KeysCommand implements Callable<Integer> {

    @Override
    public Integer call() {
        System.err.println("warden keys: say what to do, e.g. `warden keys new --name ci-bot --scope mcp:tools`");
        return 2;
    }

    @Command(name = "new", mixinStandardHelpOptions = true,
            description = {"Prints a new API key on stdout and, on stderr, the entry for the keys file (only its "
                    + "SHA-256 digest is stored: keep the key itself where the client reads it)."})
    static final class New implements Callable<Integer> {

        @Option(names = "--name", required = true, paramLabel = "NAME",
                description = "What the key is called: its caller's subject is key:NAME, in audit records and rules.")
        String name;

        @Option(names = "--scope", paramLabel = "SCOPE", description = "A scope the key grants (repeat for several).")
        List<String> scopes = List.of();

        @Override
        public Integer call() {
            if (!name.matches("[A-Za-z0-9._-]{1,64}")) {
                System.err.println("warden keys new: --name must be 1 to 64 letters, digits, '.', '_' or '-'");
                return 2;
            }
            for (String scope : scopes) {
                if (!scope.matches("[\\x21\\x23-\\x5B\\x5D-\\x7E]{1,128}")) {
                    System.err.println("warden keys new: a scope is printable ASCII without spaces, quotes or "
                            + "backslashes (RFC 6749)");
                    return 2;
                }
            }
            String key = ApiKeys.newKey();
            System.out.println(key);
            System.out.flush();
            System.err.println("Add to the keys file (auth.apiKeys.file), under keys:");
            System.err.println("  - { name: " + name + ", sha256: " + ApiKeys.digest(key) + ", scopes: ["
                    + String.join(", ", scopes) + "] }");
            return 0;
        }
    }
}
