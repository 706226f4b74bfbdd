package dev.warden.cli;

import dev.warden.auth.ApiKeys;
import dev.warden.core.identity.ScopeToken;
import dev.warden.core.json.Json;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

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

        @Option(names = "--scope", paramLabel = "SCOPE", description = "A scope the key grants, as RFC 6749 spells one; repeat --scope for several "
                        + "(a comma is refused, never taken as a separator).")
        List<String> scopes = List.of();

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            java.io.PrintWriter out = spec.commandLine().getOut();
            java.io.PrintWriter err = spec.commandLine().getErr();
            if (!name.matches("[A-Za-z0-9._-]{1,64}")) {
                err.println("warden keys new: --name must be 1 to 64 letters, digits, '.', '_' or '-'");
                return 2;
            }
            for (String scope : scopes) {
                if (scope.contains(",")) {
                    // RFC 6749 allows a comma in a scope, but here it is nearly always meant as a list:
                    // refused, so the key never holds a scope its operator did not mean.
                    err.println("warden keys new: --scope " + Json.write(scope) + " holds a comma; give one scope "
                            + "per --scope (repeat --scope for several)");
                    return 2;
                }
                if (scope.length() > 128 || !ScopeToken.valid(scope)) {
                    err.println("warden keys new: --scope " + Json.write(scope) + " is not a scope: printable ASCII "
                            + "without spaces, quotes or backslashes, at most 128 characters (RFC 6749)");
                    return 2;
                }
            }
            String key = ApiKeys.newKey();
            String entry = ApiKeys.entry(name, key, scopes);
            out.println(key);
            out.flush();
            err.println("Add to the keys file (auth.apiKeys.file), under keys:");
            err.println("  " + entry);
            err.flush();
            return 0;
        }
    }
}
