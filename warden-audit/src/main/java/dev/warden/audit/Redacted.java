package dev.warden.audit;

import dev.warden.core.sanitize.Sanitizer;
import dev.warden.core.sanitize.detection.Category;
import dev.warden.core.sanitize.detection.Finding;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A target's command line or URL as a report may show it: credentials in it (a password in a
 * database URL, an API key passed as an argument, the value after {@code --token}) are replaced by
 * {@code [redacted]}, found by the sanitizer's own secret detectors and by the flag before them.
 */
final class Redacted {

    private static final Sanitizer SANITIZER = Sanitizer.ofDefaults();
    private static final Set<String> SECRET_FLAG_WORDS = Set.of("token", "key", "secret", "password", "passwd",
            "pass", "pwd", "auth", "authorization", "credential", "credentials", "apikey", "bearer", "cookie");

    private Redacted() {
    }

    static String command(List<String> command) {
        List<String> out = new ArrayList<>(command.size());
        boolean valueOfSecretFlag = false;
        for (String arg : command) {
            out.add(valueOfSecretFlag ? "[redacted]" : text(arg));
            valueOfSecretFlag = arg.startsWith("-") && !arg.contains("=") && secretName(arg);
        }
        return String.join(" ", out);
    }

    /** {@code text} with every secret the sanitizer finds, and every {@code secret-name=value}'s value, replaced. */
    static String text(String text) {
        int eq = text.indexOf('=');
        if (eq > 0 && secretName(text.substring(0, eq)) && !text.contains("://")) {
            return text.substring(0, eq + 1) + "[redacted]";
        }
        List<Finding> secrets = SANITIZER.detect(text).stream().filter(f -> f.category() == Category.SECRET).toList();
        if (secrets.isEmpty()) {
            return text;
        }
        StringBuilder sb = new StringBuilder();
        int at = 0;
        for (Finding f : secrets) {
            if (f.start() >= at && f.end() <= text.length()) {
                sb.append(text, at, f.start()).append("[redacted]");
                at = f.end();
            }
        }
        return sb.append(text, Math.min(at, text.length()), text.length()).toString();
    }

    private static boolean secretName(String name) {
        StringBuilder word = new StringBuilder();
        String lower = name.toLowerCase(Locale.ROOT);
        for (int i = 0; i <= lower.length(); i++) {
            char c = i < lower.length() ? lower.charAt(i) : '-';
            if (Character.isLetterOrDigit(c)) {
                word.append(c);
            } else {
                if (SECRET_FLAG_WORDS.contains(word.toString())) {
                    return true;
                }
                word.setLength(0);
            }
        }
        return false;
    }
}
