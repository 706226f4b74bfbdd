package dev.warden.core.segment;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * How a record goes into a segment: one line, written whole at the end of the file, so a crash
 * loses at most the line being written; and after a write that failed, the file cut back to its
 * last whole line, so no torn line stays for a reader to trip on.
 */
public final class Appends {

    private Appends() {
    }

    /** Writes all of {@code line} at the channel's position. */
    public static void write(FileChannel channel, byte[] line) throws IOException {
        ByteBuffer buffer = ByteBuffer.wrap(line);
        while (buffer.hasRemaining()) {
            channel.write(buffer);
        }
    }

    /**
     * After a failed write: the file back to {@code size} bytes (where the record began). False
     * when even that failed: the caller closes the channel, and the next write reopens it.
     */
    public static boolean cutBack(FileChannel channel, long size) {
        try {
            channel.truncate(size);
            channel.position(size);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
