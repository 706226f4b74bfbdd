package dev.warden.audit.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * What a tool's name, description and annotations say it does: whether calling it may change
 * something (so the audit leaves it alone unless allowed), whether it checks a password (paired
 * enumeration probes), whether it takes long (the cancellation probe). Words are split on
 * {@code _ - . /}, spaces and camelCase, by hand: no regex runs over what a server sent.
 */
public final class ToolNames {

    private static final Set<String> DESTRUCTIVE = Set.of("write", "delete", "remove", "drop", "send", "pay",
            "transfer", "create", "update", "insert", "exec", "execute", "kill", "rm", "truncate", "destroy",
            "purge", "wipe", "erase", "overwrite", "move", "rename", "publish", "deploy", "shutdown", "restart",
            "upload", "charge", "refund", "withdraw", "edit", "modify", "run", "shell", "commit", "push",
            "terminate", "revoke", "grant", "add", "save", "store", "append", "clear", "reset",
            // buying, posting and submitting pay or send; cancelling and archiving change what exists
            "purchase", "buy", "checkout", "sell", "post", "submit", "cancel", "approve", "invite", "notify",
            "tweet", "sms", "unlink", "rmdir", "mkdir", "put", "patch", "replace", "merge", "install", "uninstall",
            "disable", "archive", "set", "book", "reserve", "unsubscribe", "subscribe",
            // mailing, ordering, wiring money and evaluating code send, pay or run something
            "email", "mail", "order", "wire", "eval", "evaluate", "ship", "donate");
    private static final Set<String> LOGIN = Set.of("login", "signin", "logon", "authenticate", "auth",
            "authorize", "signon");
    private static final Set<String> SLOW = Set.of("sleep", "sleeps", "wait", "waits", "long", "slow", "delay",
            "delays", "longrunning");
    private static final Set<String> USER = Set.of("user", "username", "email", "login", "account", "userid",
            "mail", "name", "principal", "usr");
    private static final Set<String> PASSWORD = Set.of("password", "passwd", "pass", "pwd", "passphrase",
            "secret", "pin", "credential", "credentials");

    private ToolNames() {
    }

    /**
     * Why calling {@code tool} may change something; empty when nothing says so. A name that says
     * so wins over a {@code readOnlyHint}: annotations are the server's hints, not promises, and a
     * {@code delete_file} marked read-only is more likely mislabelled than harmless.
     */
    public static Optional<String> destructive(JsonNode tool) {
        JsonNode annotations = tool.path("annotations");
        boolean readOnly = annotations.path("readOnlyHint").asBoolean(false);
        if (annotations.path("destructiveHint").asBoolean(false) && !readOnly) {
            return Optional.of("annotated destructiveHint");
        }
        List<String> words = words(tool.path("name").asString(""));
        for (int i = 0; i < words.size(); i++) {
            Optional<String> verb = verbOf(words.get(i), i == 0);
            if (verb.isPresent()) {
                return Optional.of("its name says '" + verb.get() + "'");
            }
        }
        return Optional.empty();
    }

    /**
     * The destructive verb {@code word} is a form of: the verb itself anywhere; the noun of paying or
     * sending anywhere ({@code payment}, {@code payout}, {@code shipment}); and, in a name's first
     * word, where names put their verb, its -ing form ({@code sending_mail}). Not -s (a first word
     * {@code orders} or {@code emails} is a noun as often: a tool that lists them) nor a past
     * participle ({@code deleted_items_count} counts, it deletes nothing).
     */
    static Optional<String> verbOf(String word, boolean first) {
        if (DESTRUCTIVE.contains(word)) {
            return Optional.of(word);
        }
        for (String suffix : first ? List.of("ment", "ments", "out", "outs", "ing") : List.of("ment",
                "ments", "out", "outs")) {
            if (word.length() > suffix.length() + 2 && word.endsWith(suffix)) {
                String stem = word.substring(0, word.length() - suffix.length());
                for (String candidate : List.of(stem, stem + "e", undoubled(stem))) {
                    if (DESTRUCTIVE.contains(candidate)) {
                        return Optional.of(candidate);
                    }
                }
            }
        }
        return Optional.empty();
    }

    /** {@code dropp} for {@code dropping}: the stem with a doubled last consonant undone. */
    private static String undoubled(String stem) {
        int n = stem.length();
        return n > 2 && stem.charAt(n - 1) == stem.charAt(n - 2) ? stem.substring(0, n - 1) : stem;
    }

    /**
     * The properties to pair-probe a login-like tool with (the account, the password), when its name
     * or description says it checks credentials and its schema has both.
     */
    public static Optional<List<String>> login(JsonNode tool) {
        List<String> said = new ArrayList<>(words(tool.path("name").asString("")));
        said.addAll(words(tool.path("description").asString("")));
        boolean verifiesPassword = said.contains("verify") && said.contains("password");
        if (said.stream().noneMatch(LOGIN::contains) && !verifiesPassword && !joined(said, "sign", "in")) {
            return Optional.empty();
        }
        String user = null;
        String password = null;
        for (var property : tool.path("inputSchema").path("properties").properties()) {
            List<String> parts = words(property.getKey());
            if (password == null && parts.stream().anyMatch(PASSWORD::contains)) {
                password = property.getKey();
            } else if (user == null && parts.stream().anyMatch(USER::contains)) {
                user = property.getKey();
            }
        }
        return user == null || password == null ? Optional.empty() : Optional.of(List.of(user, password));
    }

    /** Whether the tool says it takes long (sleep, wait, long-running): the one to cancel. */
    public static boolean slow(JsonNode tool) {
        List<String> said = new ArrayList<>(words(tool.path("name").asString("")));
        said.addAll(words(tool.path("description").asString("")));
        return said.stream().anyMatch(SLOW::contains) || joined(said, "long", "running");
    }

    /** Lower-case words of {@code text}: split on non-letters-or-digits and at lower-to-upper case changes. */
    public static List<String> words(String text) {
        List<String> out = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        int limit = Math.min(text.length(), 4096);
        for (int i = 0; i < limit; i++) {
            char c = text.charAt(i);
            if (!Character.isLetterOrDigit(c)) {
                flush(word, out);
                continue;
            }
            if (Character.isUpperCase(c) && i > 0 && (Character.isLowerCase(text.charAt(i - 1))
                    || Character.isDigit(text.charAt(i - 1)))) {
                flush(word, out); // sendEmail, s3Delete
            }
            word.append(Character.toLowerCase(c));
        }
        flush(word, out);
        return out;
    }

    private static boolean joined(List<String> words, String first, String second) {
        for (int i = 0; i + 1 < words.size(); i++) {
            if (words.get(i).equals(first) && words.get(i + 1).equals(second)) {
                return true;
            }
        }
        return false;
    }

    private static void flush(StringBuilder word, List<String> out) {
        if (!word.isEmpty()) {
            out.add(word.toString().toLowerCase(Locale.ROOT));
            word.setLength(0);
        }
    }
}
