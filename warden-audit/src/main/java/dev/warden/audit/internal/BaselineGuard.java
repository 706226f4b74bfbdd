package dev.warden.audit.internal;

import dev.warden.client.http.Loopback;
import dev.warden.audit.canary.Canaries;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * What a baseline value taken from an example must not be (a schema's {@code examples}, a list in a
 * description; an enum, const or default is what the server accepts or applies anyway, and is
 * sent as it is): the baseline call is sent without
 * {@code --allow-destructive}, so a value it sends must do nothing a probe would not. Refused: a
 * value with words and a destructive verb ({@code rm -rf build}, {@code DELETE FROM logs}), a URL
 * off loopback ({@code http://169.254.169.254/…}), a path outside every folder the tool's
 * description names ({@code ~/.ssh/id_rsa}, {@code ../x}). A refused value leaves the marker.
 */
final class BaselineGuard {

    /** Verbs of commands and statements that ToolNames' name verbs lack: they only matter inside a value. */
    private static final Set<String> COMMAND_VERBS = Set.of("alter", "chmod", "chown", "dd", "mkfs", "shred",
            "sudo", "curl", "wget", "reboot", "halt", "poweroff", "format", "nc", "scp", "ssh", "rsync");

    private BaselineGuard() {
    }

    /** Whether {@code value} may be sent in a baseline call to a tool whose description names {@code bases}. */
    static boolean harmless(JsonNode value, List<String> bases) {
        if (!value.isString()) {
            return true;
        }
        String text = value.asString();
        return !(destructiveWords(text) || offLoopback(text) || pathOutside(text, bases));
    }

    private static boolean destructiveWords(String text) {
        if (text.chars().noneMatch(Character::isWhitespace)) {
            return false;
        }
        for (String word : ToolNames.words(text)) {
            if (COMMAND_VERBS.contains(word) || ToolNames.verbOf(word, true).isPresent()) {
                return true;
            }
        }
        return false;
    }

    /** A URL (anything with {@code ://}, or {@code //host}) whose host is not loopback. */
    private static boolean offLoopback(String text) {
        int scheme = text.indexOf("://");
        int from = scheme >= 0 ? scheme + 3 : text.startsWith("//") ? 2 : -1;
        if (from < 0) {
            return false;
        }
        int end = from;
        while (end < text.length() && "/?#".indexOf(text.charAt(end)) < 0) {
            end++;
        }
        String authority = text.substring(from, end).toLowerCase(Locale.ROOT);
        String host = authority.substring(authority.lastIndexOf('@') + 1);
        int close = host.indexOf(']');
        int colon = host.lastIndexOf(':');
        host = host.startsWith("[") ? host.substring(0, close < 0 ? host.length() : close + 1)
                : colon >= 0 ? host.substring(0, colon) : host;
        return !Loopback.host(host);
    }

    /**
     * A path that leaves where the tool works: from the home folder, with a {@code ..} segment, a
     * Windows drive or share, or absolute and not under a folder the tool's description names.
     */
    private static boolean pathOutside(String text, List<String> bases) {
        if (text.startsWith("~") || text.startsWith("\\\\") || text.equals("..") || text.startsWith("../")
                || text.contains("/../") || text.endsWith("/..") || text.contains("..\\")
                || text.length() > 2 && Character.isLetter(text.charAt(0)) && text.charAt(1) == ':'
                && (text.charAt(2) == '\\' || text.charAt(2) == '/')) {
            return true;
        }
        return text.startsWith("/") && !text.startsWith("//") && !Canaries.under(text, bases);
    }
}
