package dev.warden.audit.definitions;

import dev.warden.audit.internal.ToolNames;
import java.util.List;
import java.util.Set;

/** A tool's name as words ({@link ToolNames#words}), and which of them say it changes or sends something. */
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
        return ToolNames.words(name); // the words the call guard reads too, so both split a name alike
    }

    /** The first word of {@code name} that says it changes or sends something, if any. */
    static java.util.Optional<String> destructive(String name) {
        return of(name).stream().filter(DESTRUCTIVE::contains).findFirst();
    }
}
