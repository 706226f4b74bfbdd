package dev.warden.core.segment;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Files and directories only their owner can read: what Warden keeps (incidents with upstreams'
 * original texts, the audit log) may hold what a client must never see, so no other local user
 * may either. The permissions are given at creation, so there is no moment a file is readable by
 * others; where the file system has no POSIX permissions (Windows), its defaults apply.
 */
public final class OwnerOnly {

    private OwnerOnly() {
    }

    /** Creates {@code dir} and its missing parents, each created one {@code rwx------}. */
    public static void createDirectories(Path dir) throws IOException {
        if (posix(dir.getFileSystem())) {
            Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        } else {
            Files.createDirectories(dir);
        }
    }

    /** Opens {@code file}; if the options create it, it is created {@code rw-------}. */
    public static FileChannel open(Path file, Set<? extends OpenOption> options) throws IOException {
        return FileChannel.open(file, options, fileAttributes(file));
    }

    private static FileAttribute<?>[] fileAttributes(Path file) {
        return posix(file.getFileSystem())
                ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"))}
                : new FileAttribute<?>[0];
    }

    private static boolean posix(FileSystem fs) {
        return fs.supportedFileAttributeViews().contains("posix");
    }
}
