package dev.warden.core.sanitize.path;

import dev.warden.core.sanitize.detection.Category;
import dev.warden.core.sanitize.detection.Detector;
import dev.warden.core.sanitize.detection.Finding;
import dev.warden.core.sanitize.scan.Text;
import java.util.List;
import java.util.Set;

/**
 * Absolute file paths: Unix ({@code /var/lib/app/db.sqlite}, {@code ~/.aws/credentials}), Windows
 * ({@code C:\Users\svc\app.config}, {@code \\server\share\x}) and {@code file://} URLs, each with a
 * line/column suffix if present ({@code :12:5}, {@code (12)}, {@code , line 12}).
 *
 * <p>A slash-separated word is only a path when it starts at a well-known root, ends in a file
 * extension, or carries a line number: JSON pointers such as {@code /address/city} in validation
 * messages must survive. The path part of an http(s) URL is not a file path.
 */
public final class FilePathDetector implements Detector {

    private static final Set<String> ROOTS = Set.of(
            "home", "usr", "var", "etc", "opt", "srv", "tmp", "app", "apps", "root", "Users", "private", "mnt",
            "media", "data", "workspace", "workspaces", "proc", "sys", "dev", "lib", "lib64", "bin", "sbin",
            "snap", "nix", "run", "code", "build", "builds", "go", "runner", "vagrant", "Library", "System",
            "Applications", "Volumes", "cygdrive", "boot", "gnu", "rustc", "deploy", "service", "services",
            "webapps", "www", "storage", "config", "secrets", "certs", "node_modules", "site-packages");
    /**
     * Extensions longer than the six characters a file extension is taken to have, that name files a
     * server reads: Java's configuration ({@code NoSuchFileException} says only the path) and stores.
     */
    private static final Set<String> LONG_EXTENSIONS = Set.of("properties", "keystore", "truststore", "sqlite3",
            "tfstate", "parquet");

    @Override
    public Category category() {
        return Category.FILE_PATH;
    }

    @Override
    public void scan(String text, List<Finding> out) {
        int n = text.length();
        // Jump between the only characters a path can start at, found with String.indexOf (vectorised).
        int nextSlash = text.indexOf('/');
        int nextTilde = text.indexOf('~');
        int nextColon = text.indexOf(':');
        int nextBackslash = text.indexOf('\\');

        int i = 0;
        while (i < n) {
            if (nextSlash >= 0 && nextSlash < i) {
                nextSlash = text.indexOf('/', i);
            }
            if (nextTilde >= 0 && nextTilde < i) {
                nextTilde = text.indexOf('~', i);
            }
            if (nextColon >= 0 && nextColon < i) {
                nextColon = text.indexOf(':', i);
            }
            if (nextBackslash >= 0 && nextBackslash < i) {
                nextBackslash = text.indexOf('\\', i);
            }
            int next = min(min(nextSlash, nextTilde), min(nextColon, nextBackslash));
            if (next < 0) {
                return;
            }
            i = next;
            char c = text.charAt(i);
            int end = -1;
            if (c == '/' && boundaryBefore(text, i)) {
                end = unixPath(text, i, i);
            } else if (c == '~' && i + 1 < n && text.charAt(i + 1) == '/' && boundaryBefore(text, i)) {
                end = unixPath(text, i + 1, i);
                if (end < 0 && i + 2 < n && isPathChar(text.charAt(i + 2))) {
                    end = segmentRunEnd(text, i + 1);
                }
            } else if (c == ':' && i >= 4 && i + 1 < n && text.charAt(i + 1) == '/'
                    && text.regionMatches(true, i - 4, "file", 0, 4) && boundaryBefore(text, i - 4)) {
                // file:/… and file:///…, found at their colon
                int j = i + 1;
                while (j < n && text.charAt(j) == '/') {
                    j++;
                }
                int start = i - 4;
                end = lineSuffix(text, segmentRunEnd(text, j));
                out.add(new Finding(Category.FILE_PATH, "path", start, end));
                i = end;
                continue;
            } else if (c == ':' && i >= 1 && i + 1 < n && (text.charAt(i + 1) == '\\' || text.charAt(i + 1) == '/')
                    && isAsciiLetter(text.charAt(i - 1)) && boundaryBefore(text, i - 1)
                    && (text.charAt(i + 1) == '\\' || (i + 2 < n && text.charAt(i + 2) != '/'))) {
                int start = i - 1;
                end = windowsPath(text, start);
                if (end > 0) {
                    end = lineSuffix(text, end);
                    out.add(new Finding(Category.FILE_PATH, "path", start, end));
                    i = end;
                    continue;
                }
            } else if (c == '\\' && i + 1 < n && text.charAt(i + 1) == '\\' && boundaryBefore(text, i)
                    && i + 2 < n && Text.isAlnum(text.charAt(i + 2))) {
                end = windowsPath(text, i);
            }
            if (end > i) {
                int start = i;
                if (c == '/' || c == '~') {
                    end = lineSuffix(text, end);
                }
                out.add(new Finding(Category.FILE_PATH, "path", start, end));
                i = end;
            } else {
                i++;
            }
        }
    }

    private static int min(int a, int b) {
        if (a < 0) {
            return b;
        }
        if (b < 0) {
            return a;
        }
        return Math.min(a, b);
    }

    /** The end of a Unix path starting at the slash {@code at}, or -1 if it does not look like a file path. */
    private static int unixPath(String text, int at, int reportedStart) {
        int n = text.length();
        int i = at;
        int segments = 0;
        int firstSegmentEnd = -1;
        int lastSegmentStart = -1;
        while (i < n && text.charAt(i) == '/') {
            int segStart = i + 1;
            int segEnd = segStart;
            while (segEnd < n && isPathChar(text.charAt(segEnd))) {
                segEnd++;
            }
            if (segEnd == segStart) {
                break;
            }
            segments++;
            if (firstSegmentEnd < 0) {
                firstSegmentEnd = segEnd;
            }
            lastSegmentStart = segStart;
            i = segEnd;
        }
        if (segments == 0) {
            return -1;
        }
        // Trailing punctuation is prose, not path.
        int end = i;
        while (end > lastSegmentStart && (text.charAt(end - 1) == '.' || text.charAt(end - 1) == ',')) {
            end--;
        }
        String first = text.substring(at + 1, firstSegmentEnd);
        boolean knownRoot = ROOTS.contains(first) || first.startsWith(".");
        boolean homeRelative = reportedStart != at;
        boolean extension = hasExtension(text, lastSegmentStart, end);
        boolean lineNumber = end < n && (text.charAt(end) == ':' || text.charAt(end) == '(')
                && end + 1 < n && Text.isDigit(text.charAt(end + 1));
        if (!homeRelative && !extension && !lineNumber && JsonPointers.standsAsPointer(text, at, end, firstSegmentEnd)) {
            return -1; // a validator's pointer into the caller's document, by where it stands
        }
        if ((knownRoot && segments >= 2) || homeRelative || (extension && segments >= 2) || lineNumber
                || (knownRoot && extension)) {
            return end;
        }
        return -1;
    }

    static boolean hasExtension(String text, int segStart, int segEnd) {
        int dot = -1;
        for (int i = segEnd - 1; i > segStart; i--) {
            if (text.charAt(i) == '.') {
                dot = i;
                break;
            }
        }
        if (dot < 0 || segEnd - dot - 1 < 1) {
            return false;
        }
        if (segEnd - dot - 1 > 6) {
            return LONG_EXTENSIONS.contains(text.substring(dot + 1, segEnd));
        }
        for (int i = dot + 1; i < segEnd; i++) {
            if (!Text.isAlnum(text.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    private static int segmentRunEnd(String text, int from) {
        int i = from;
        while (i < text.length() && (isPathChar(text.charAt(i)) || text.charAt(i) == '/')) {
            i++;
        }
        return i;
    }

    /** From a drive letter or a UNC prefix to the end of the last segment; spaces allowed inside. */
    private static int windowsPath(String text, int start) {
        int n = text.length();
        int i = start;
        int lastSeparator = -1;
        while (i < n) {
            char c = text.charAt(i);
            if (c == '\n' || c == '\r' || c == '\t' || c == '"' || c == '\'' || c == '<' || c == '>' || c == '|'
                    || c == '`' || c == '*' || c == '?') {
                break;
            }
            if ((c == '\\' || c == '/') && i > start + 1) {
                lastSeparator = i;
            }
            i++;
        }
        if (lastSeparator < 0) {
            return -1;
        }
        int end = lastSeparator + 1;
        while (end < i && text.charAt(end) != ' ' && text.charAt(end) != ',' && text.charAt(end) != ';'
                && text.charAt(end) != ')' && text.charAt(end) != ']') {
            end++;
        }
        while (end > lastSeparator + 1 && (text.charAt(end - 1) == '.' || text.charAt(end - 1) == ':')) {
            end--;
        }
        return end;
    }

    /** Extends over {@code :12}, {@code :12:5}, {@code (12)}, {@code (12,5)}, {@code , line 12}, {@code :line 12}. */
    private static int lineSuffix(String text, int end) {
        int n = text.length();
        if (end < n - 1 && text.charAt(end) == ':' && Text.isDigit(text.charAt(end + 1))) {
            int i = end + 1;
            while (i < n && Text.isDigit(text.charAt(i))) {
                i++;
            }
            if (i < n - 1 && text.charAt(i) == ':' && Text.isDigit(text.charAt(i + 1))) {
                i++;
                while (i < n && Text.isDigit(text.charAt(i))) {
                    i++;
                }
            }
            return i;
        }
        if (end < n - 1 && text.charAt(end) == '(' && Text.isDigit(text.charAt(end + 1))) {
            int i = end + 1;
            while (i < n && (Text.isDigit(text.charAt(i)) || text.charAt(i) == ',')) {
                i++;
            }
            return i < n && text.charAt(i) == ')' ? i + 1 : end;
        }
        if (Text.matches(text, end, ":line ") && end + 6 < n && Text.isDigit(text.charAt(end + 6))) {
            int i = end + 6;
            while (i < n && Text.isDigit(text.charAt(i))) {
                i++;
            }
            return i;
        }
        return end;
    }

    private static boolean boundaryBefore(String text, int at) {
        if (at == 0) {
            return true;
        }
        char p = text.charAt(at - 1);
        return Text.isSpace(p) || p == '"' || p == '\'' || p == '`' || p == '(' || p == '[' || p == '{'
                || p == '=' || p == ',' || p == ';' || p == '<' || p == '>' || p == '|';
    }

    private static boolean isAsciiLetter(char c) {
        return Text.isUpper(c) || Text.isLower(c);
    }

    private static boolean isPathChar(char c) {
        return Text.isAlnum(c) || c == '_' || c == '-' || c == '.' || c == '@' || c == '+' || c == '~' || c == '%'
                || c == '$' || c == '#' || c == '=';
    }
}
