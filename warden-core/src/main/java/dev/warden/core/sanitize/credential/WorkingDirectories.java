package dev.warden.core.sanitize.credential;

import java.util.Set;

/**
 * Whether the value of a {@code PWD} or {@code OLDPWD} setting is the working directory a shell
 * exports (a server that prints its environment shows it) rather than the password {@code pwd}
 * abbreviates ({@code PWD=} is also ODBC's password keyword). A directory starts with a top-level
 * directory of Linux or macOS and holds only the characters of ordinary paths; a secret that
 * happens to start with a slash (one Base64 string in 64 does) has neither shape.
 */
final class WorkingDirectories {

    /** Top-level directories a process runs under: the FHS's, macOS's, and those of common CI and containers. */
    private static final Set<String> ROOTS = Set.of("bin", "boot", "dev", "etc", "home", "lib", "lib64", "media",
            "mnt", "opt", "proc", "root", "run", "sbin", "srv", "sys", "tmp", "usr", "var", "app", "apps", "data",
            "work", "workspace", "workspaces", "builds", "code", "src", "Users", "Volumes", "private", "github",
            "runner", "nix", "snap", "__w");

    /** A directory names no more than this; a longer value is not one (and is not scanned further). */
    private static final int MAX_CHARS = 4096;

    private WorkingDirectories() {
    }

    /** Whether {@code text[start, end)} is {@code /} or an absolute path under a known top-level directory. */
    static boolean isOne(String text, int start, int end) {
        if (end <= start || end - start > MAX_CHARS || text.charAt(start) != '/') {
            return false;
        }
        for (int i = start; i < end; i++) {
            char c = text.charAt(i);
            boolean pathChar = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
                    || c == '/' || c == '.' || c == '_' || c == '-' || c == '~' || c == '@';
            if (!pathChar) {
                return false;
            }
        }
        if (end - start == 1) {
            return true;
        }
        int slash = text.indexOf('/', start + 1);
        int rootEnd = slash < 0 || slash > end ? end : slash;
        return ROOTS.contains(text.substring(start + 1, rootEnd));
    }
}
