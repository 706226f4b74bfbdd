package dev.warden.audit.canary;

import dev.warden.core.sanitize.SqlSyntaxErrors;
import java.util.List;
import java.util.Optional;

/**
 * Error texts that only a shell or a database writes, matched as lower-case substrings (linear
 * time on any text: no regular expression runs over what a server sent). Each is a signal only
 * where the same tool's baseline answer lacks it.
 */
final class Signatures {

    /** A signature: its name for the report, and every part that must appear in one string. */
    record Signature(String name, List<String> parts) {
        boolean in(String lower) {
            for (String part : parts) {
                if (!lower.contains(part)) {
                    return false;
                }
            }
            return true;
        }
    }

    /** The specific ones first: a finding names the first one its answer shows. */
    static final List<Signature> SHELL = List.of(
            sig("syntax error near unexpected token", "syntax error near unexpected token"),
            sig("Syntax error: Unterminated quoted string", "syntax error: unterminated quoted string"),
            sig("unexpected EOF while looking for matching", "unexpected eof while looking for matching"),
            sig("Bad substitution", "bad substitution"),
            sig("command not found", ": command not found"),
            sig("not recognized as an internal or external command", "is not recognized as an internal or external command"),
            sig("/bin/sh:", "/bin/sh: "),
            sig("sh: 1:", "sh: 1: "),
            sig("bash: line N:", "bash: line "),
            sig("bash: -c:", "bash: -c: "));

    /**
     * A database's syntax error: the sanitizer's own table ({@link SqlSyntaxErrors}), so what a
     * database error looks like is known in one place.
     */
    static final List<Signature> SQL = SqlSyntaxErrors.all().stream()
            .map(p -> new Signature(p.name(), List.of(p.lower()))).toList();

    /** What an operating system says when a file it was asked to open is missing or refused. */
    static final List<Signature> FILE_ERROR = List.of(
            sig("ENOENT", "enoent"),
            sig("no such file or directory", "no such file or directory"),
            sig("NoSuchFileException", "nosuchfileexception"),
            sig("FileNotFoundException", "filenotfoundexception"),
            sig("[Errno 2]", "[errno 2]"),
            sig("EACCES", "eacces"),
            sig("EISDIR", "eisdir"),
            sig("ENOTDIR", "enotdir"),
            sig("is a directory", "is a directory"),
            sig("not a directory", "not a directory"));

    private Signatures() {
    }

    private static Signature sig(String name, String... parts) {
        return new Signature(name, List.of(parts));
    }

    static Optional<Signature> first(List<Signature> table, String lower) {
        return first(table, lower, java.util.Set.of());
    }

    /** The first signature of {@code table} in {@code lower} whose name is not in {@code already}. */
    static Optional<Signature> first(List<Signature> table, String lower, java.util.Set<String> already) {
        for (Signature s : table) {
            if (!already.contains(s.name()) && s.in(lower)) {
                return Optional.of(s);
            }
        }
        return Optional.empty();
    }
}
