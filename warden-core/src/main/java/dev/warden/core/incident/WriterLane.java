package dev.warden.core.incident;

import dev.warden.core.segment.OwnerOnly;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The part of a store directory that one writing store owns. Processes share a data directory by
 * default (a gateway, a {@code warden demo} it runs as an upstream, {@code warden wrap} beside
 * them), and a segment has exactly one writer: its size, rotation, retention and the index of its
 * active segment are that writer's. So each writing store takes the first lane whose lock no
 * other holds (the directory itself, then {@code lane-2}, {@code lane-3}... inside it) and keeps
 * the lock, an OS file lock the kernel drops when the process dies, until it closes. Readers read
 * every lane.
 */
final class WriterLane implements AutoCloseable {

    /** More writers than this on one directory is a mistake, not a deployment: the open then fails. */
    static final int MAX_LANES = 64;
    private static final String LANE_PREFIX = "lane-";
    private static final String LOCK_FILE = ".writer.lock";

    private final Path directory;
    private final FileChannel channel;

    private WriterLane(Path directory, FileChannel channel) {
        this.directory = directory;
        this.channel = channel;
    }

    /** The directory this writer's segments go in. */
    Path directory() {
        return directory;
    }

    /** Takes the first free lane of {@code root}, creating it; fails when all {@value #MAX_LANES} are held. */
    static WriterLane claim(Path root) throws IOException {
        OwnerOnly.createDirectories(root);
        for (int number = 1; number <= MAX_LANES; number++) {
            Path lane = number == 1 ? root : root.resolve(LANE_PREFIX + number);
            OwnerOnly.createDirectories(lane);
            FileChannel channel = OwnerOnly.open(lane.resolve(LOCK_FILE),
                    Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE));
            if (locked(channel)) {
                return new WriterLane(lane, channel);
            }
            channel.close();
        }
        throw new IOException("all " + MAX_LANES + " writer lanes of " + root + " are held by other stores");
    }

    private static boolean locked(FileChannel channel) throws IOException {
        try {
            FileLock lock = channel.tryLock();
            return lock != null;
        } catch (OverlappingFileLockException heldInThisProcess) {
            return false; // another store of this JVM writes there
        }
    }

    /** The lanes of {@code root} that exist, the directory itself first. */
    static List<Path> all(Path root) throws IOException {
        List<Path> lanes = new ArrayList<>();
        lanes.add(root);
        if (!Files.isDirectory(root)) {
            return lanes;
        }
        try (Stream<Path> entries = Files.list(root)) {
            entries.filter(Files::isDirectory).filter(p -> laneNumber(p) > 1)
                    .sorted(Comparator.comparingInt(WriterLane::laneNumber)).forEach(lanes::add);
        }
        return lanes;
    }

    /** The number in a {@code lane-N} directory's name; 0 for anything else. */
    private static int laneNumber(Path path) {
        String name = path.getFileName().toString();
        if (!name.startsWith(LANE_PREFIX) || name.length() == LANE_PREFIX.length() || name.length() > 8) {
            return 0;
        }
        String digits = name.substring(LANE_PREFIX.length());
        return digits.chars().allMatch(c -> c >= '0' && c <= '9') ? Integer.parseInt(digits) : 0;
    }

    /** Releases the lane for the next writer. */
    @Override
    public void close() throws IOException {
        channel.close();
    }
}
