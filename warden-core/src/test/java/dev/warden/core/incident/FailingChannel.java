package dev.warden.core.incident;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A file channel that fails writes while its flag is set, after writing half of what it was
 * given (as a disk that fills mid-record does): the seam for a full disk.
 */
final class FailingChannel extends DelegatingChannel {

    private final AtomicBoolean full;

    FailingChannel(FileChannel inner, AtomicBoolean full) {
        super(inner);
        this.full = full;
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        if (full.get()) {
            ByteBuffer half = src.slice(src.position(), Math.max(1, src.remaining() / 2));
            int n = super.write(half);
            src.position(src.position() + n);
            throw new IOException("No space left on device");
        }
        return super.write(src);
    }

    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
        if (full.get()) {
            throw new IOException("No space left on device");
        }
        return super.write(srcs, offset, length);
    }

    @Override
    public int write(ByteBuffer src, long position) throws IOException {
        if (full.get()) {
            throw new IOException("No space left on device");
        }
        return super.write(src, position);
    }
}
