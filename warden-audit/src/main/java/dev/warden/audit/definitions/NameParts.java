package dev.warden.audit.definitions;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** A tool's name as words: split on {@code _ - .} and spaces, and where camelCase starts a word. */
final class NameParts {

    /**
     * Words that say a tool changes or sends something, for a finding against the server (a tool
     * so named that declares no hint). Narrower than the list the auditor uses to decide what not
     * to call ({@code internal.ToolNames}), which errs the other way: a word there (add, set, run)
     * is reason enough to leave a tool alone, not to blame its author.
     */
    static final Set<String> DESTRUCTIVE = Set.of("write", "delete", "remove", "drop", "send", "pay", "transfer",
            "update", "create", "exec", "execute", "kill", "move", "rename", "destroy", "purge", "truncate", "wipe",
            "erase", "overwrite", "edit");

    private NameParts() {
    }

    static List<String> of(String name) {
        List<String> parts = new ArrayList<>();
        StringBuilder w = new StringBuilder();
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean separator = c == '_' || c == '-' || c == '.' || c == ' ' || c == '/';
            boolean camel = Character.isUpperCase(c) && i > 0 && Character.isLowerCase(name.charAt(i - 1));
            if ((separator || camel) && w.length() > 0) {
                parts.add(w.toString().toLowerCase(Locale.ROOT));
                w.setLength(0);
            }
            if (!separator) {
                w.append(c);
            }
        }
        if (w.length() > 0) {
            parts.add(w.toString().toLowerCase(Locale.ROOT));
        }
        return parts;
    }

    /** The first word of {@code name} that says it changes or sends something, if any. */
    static java.util.Optional<String> destructive(String name) {
        return of(name).stream().filter(DESTRUCTIVE::contains).findFirst();
    }
}
