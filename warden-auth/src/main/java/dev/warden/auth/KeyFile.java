package dev.warden.auth;

import dev.warden.auth.KeyDocument.StoredKey;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * An API keys file, reloaded when it changes. Looked at from the request path, at most once per
 * {@link #CHECK_EVERY_MS} of the resource server's clock, by whichever request comes first (the
 * others go on with the keys they have): a stat a second costs nothing, needs no thread to start
 * or stop, and follows the injected clock, so tests drive it without sleeping. A file that
 * changes into something unusable keeps the keys already loaded and is reported once (per
 * change), never thrown into a request; a file that is gone revokes every key it held (a
 * missing file never keeps keys: at start it is a configuration error).
 */
final class KeyFile {

    static final long CHECK_EVERY_MS = 1_000;

    /** What identifies a version of the file without reading it. */
    private record Stamp(FileTime modified, long size, Object fileKey) {
    }

    private static final Stamp MISSING = new Stamp(FileTime.fromMillis(0), -1, null);

    private final Path path;
    private final Consumer<String> problems;
    private final AtomicLong nextCheck = new AtomicLong(Long.MIN_VALUE);
    private volatile List<StoredKey> keys;
    private volatile Stamp seen;

    /** Loads {@code path}, or throws an {@link AuthConfigException} saying what is wrong with it. */
    KeyFile(Path path, Consumer<String> problems) {
        this.path = path;
        this.problems = problems;
        this.seen = stamp();
        if (seen == MISSING) {
            throw new AuthConfigException(path + ": no such readable file");
        }
        this.keys = read();
    }

    List<StoredKey> keys(long nowMillis) {
        long next = nextCheck.get();
        if (nowMillis >= next && nextCheck.compareAndSet(next, nowMillis + CHECK_EVERY_MS)) {
            refresh();
        }
        return keys;
    }

    private void refresh() {
        Stamp now = stamp();
        if (Objects.equals(now, seen)) {
            return;
        }
        seen = now;
        if (now == MISSING) {
            // Deleting the file is how an operator revokes in a hurry: its keys go with it.
            keys = List.of();
            report("API keys file " + path + " is gone; every key it held is revoked until it is back");
            return;
        }
        try {
            keys = read();
        } catch (AuthConfigException e) {
            report("API keys file " + path + " changed but cannot be used, the keys loaded before stay in use: "
                    + e.getMessage());
        }
    }

    /** The listener runs on a request's thread: whatever it does, the request goes on. */
    private void report(String problem) {
        try {
            problems.accept(problem);
        } catch (RuntimeException ignored) {
            // a broken listener must not turn a reload problem into a failed request
        }
    }

    private List<StoredKey> read() {
        try {
            return KeyDocument.parse(Files.readString(path, StandardCharsets.UTF_8), path.toString());
        } catch (IOException e) {
            throw new AuthConfigException(path + ": cannot be read (" + e.getClass().getSimpleName() + ")");
        }
    }

    private Stamp stamp() {
        try {
            BasicFileAttributes a = Files.readAttributes(path, BasicFileAttributes.class);
            return new Stamp(a.lastModifiedTime(), a.size(), a.fileKey());
        } catch (IOException e) {
            return MISSING;
        }
    }
}
