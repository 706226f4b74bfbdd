package dev.warden.core.incident;

import dev.warden.core.json.JsonText;
import dev.warden.core.segment.Appends;
import dev.warden.core.segment.OwnerOnly;
import dev.warden.core.segment.Retention;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Each incident as one JSON line, flushed per record, to stderr, a stream or a file (never stdout:
 * that is the protocol stream). {@link Detail#FULL} writes the whole incident ({@link AtRest}), for
 * a server with no store; {@link Detail#SUMMARY} only the ref and Warden's own words, beside a store
 * that keeps the rest, so nothing an upstream wrote is logged twice. A file is owner-only and kept
 * within a {@link Retention} (rotated to {@code FILE.1} at half its size); a failed write is said
 * once a minute, never as a stack trace.
 */
public final class JsonLinesIncidentSink implements IncidentSink {

    /** How much of an incident a line carries. */
    public enum Detail { FULL, SUMMARY }

    private static final System.Logger LOG = System.getLogger(JsonLinesIncidentSink.class.getName());

    private final Detail detail;
    private final OutputStream out;
    private final RollingFile file;
    private final ReentrantLock lock = new ReentrantLock();

    private JsonLinesIncidentSink(Detail detail, OutputStream out, RollingFile file) {
        this.detail = detail;
        this.out = out;
        this.file = file;
    }

    /** Whole incidents to the stderr captured now (later redirection of System.err does not matter). */
    public static JsonLinesIncidentSink stderr() {
        return stderr(Detail.FULL);
    }

    public static JsonLinesIncidentSink stderr(Detail detail) {
        return to(new PrintStream(System.err, true, StandardCharsets.UTF_8), detail);
    }

    public static JsonLinesIncidentSink to(OutputStream out, Detail detail) {
        return new JsonLinesIncidentSink(Objects.requireNonNull(detail, "detail"), Objects.requireNonNull(out, "out"),
                null);
    }

    /** Whole incidents to {@code path}, within {@link Retention#DEFAULT}. */
    public static JsonLinesIncidentSink file(Path path) {
        return file(path, Detail.FULL, Retention.DEFAULT, Clock.systemUTC());
    }

    /**
     * @throws IllegalArgumentException if the file cannot be opened (said at start, where the
     *     operator named it)
     */
    public static JsonLinesIncidentSink file(Path path, Detail detail, Retention retention, Clock clock) {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(detail, "detail");
        try {
            return new JsonLinesIncidentSink(detail, null, new RollingFile(path.toAbsolutePath(), retention, clock));
        } catch (IOException | UncheckedIOException e) {
            throw new IllegalArgumentException("cannot open incident log " + path + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void record(Incident incident) {
        // JsonText writes the mapper's text without the mapper's per-call set-up (see its comment).
        String json = JsonText.of(detail == Detail.FULL ? IncidentJson.toJson(AtRest.redacted(incident))
                : IncidentJson.summary(incident));
        byte[] line = (json + "\n").getBytes(StandardCharsets.UTF_8);
        if (file != null) {
            file.append(line);
            return;
        }
        lock.lock(); // not a monitor: a virtual thread waiting for one pins its carrier on JDK 21
        try {
            out.write(line);
            out.flush();
        } catch (IOException e) {
            // Nowhere left to report to; the failure itself still reaches the peer.
        } finally {
            lock.unlock();
        }
    }

    /** A log file and its one older part, within a retention. */
    private static final class RollingFile {
        private final Path path;
        private final Path older;
        private final Retention retention;
        private final Clock clock;
        private final FailureNotice notice;
        private FileChannel channel;
        private long size;

        RollingFile(Path path, Retention retention, Clock clock) throws IOException {
            this.path = path;
            this.older = path.resolveSibling(path.getFileName() + ".1");
            this.retention = Objects.requireNonNull(retention, "retention");
            this.clock = Objects.requireNonNull(clock, "clock");
            this.notice = new FailureNotice(LOG, "the incident log " + path, clock, FailureNotice.DEFAULT_PERIOD);
            Path parent = path.getParent();
            if (parent != null) {
                OwnerOnly.createDirectories(parent);
            }
            if (tooOld(path)) {
                roll();
            }
            if (tooOld(older)) {
                Files.deleteIfExists(older);
            }
            open();
        }

        private boolean tooOld(Path file) throws IOException {
            return Files.exists(file)
                    && Files.getLastModifiedTime(file).toInstant().isBefore(clock.instant().minus(retention.maxAge()));
        }

        private void open() throws IOException {
            channel = OwnerOnly.open(path, Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.APPEND));
            size = channel.size();
        }

        private void roll() throws IOException {
            if (channel != null) {
                channel.close();
                channel = null;
            }
            if (Files.exists(path)) {
                Files.move(path, older, StandardCopyOption.REPLACE_EXISTING);
            }
        }

        private final ReentrantLock lock = new ReentrantLock();

        void append(byte[] line) {
            lock.lock();
            try {
                if (channel == null) {
                    open();
                }
                if (size > 0 && size + line.length > retention.maxBytes() / 2) {
                    roll();
                    open();
                }
                Appends.write(channel, line);
                size += line.length;
                notice.succeeded();
            } catch (IOException e) {
                notice.failed(e);
                if (channel != null && !Appends.cutBack(channel, size)) {
                    closeQuietly();
                }
            } finally {
                lock.unlock();
            }
        }

        private void closeQuietly() {
            try {
                if (channel != null) {
                    channel.close();
                }
            } catch (IOException ignored) {
                // reopened by the next write
            }
            channel = null;
        }
    }
}
