package dev.warden.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Assumptions;

/**
 * Makes a directory read-only for this process: {@code r-x------}, and where the process is
 * privileged enough to write it anyway (root), also immutable ({@code chattr +i}). Skips the test
 * when neither holds. Closing makes it writable again.
 */
public final class ReadOnlyDirectory implements AutoCloseable {

    private final Path dir;
    private boolean immutable;

    private ReadOnlyDirectory(Path dir) {
        this.dir = dir;
    }

    public static ReadOnlyDirectory make(Path dir) throws Exception {
        Files.createDirectories(dir);
        ReadOnlyDirectory ro = new ReadOnlyDirectory(dir);
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("r-x------"));
        if (writable(dir)) {
            ro.immutable = run("chattr", "+i", dir.toString()) && !writable(dir);
            Assumptions.assumeTrue(ro.immutable, "this process can write a read-only directory");
        }
        return ro;
    }

    private static boolean writable(Path dir) {
        try {
            Files.delete(Files.createTempFile(dir, "probe", ""));
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static boolean run(String... command) {
        try {
            return new ProcessBuilder(command).redirectErrorStream(true).start().waitFor() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Override
    public void close() throws IOException {
        if (immutable) {
            run("chattr", "-i", dir.toString());
            immutable = false;
        }
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
    }
}
