package dev.warden.core.incident;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;

/**
 * A file channel that fails writes while its flag is set, after writing half of what it was
 * given (as a disk that fills mid-record does): the seam for a full disk.
 */
final class FailingChannel extends FileChannel {

    private final FileChannel inner;
    private final java.util.concurrent.atomic.AtomicBoolean full;

    FailingChannel(FileChannel inner, java.util.concurrent.atomic.AtomicBoolean full) {
        this.inner = inner;
        this.full = full;
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        if (full.get()) {
            ByteBuffer half = src.slice(src.position(), Math.max(1, src.remaining() / 2));
            int n = inner.write(half);
            src.position(src.position() + n);
            throw new IOException("No space left on device");
        }
        return inner.write(src);
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        return inner.read(dst);
    }

    @Override
    public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
        return inner.read(dsts, offset, length);
    }

    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
        if (full.get()) {
            throw new IOException("No space left on device");
        }
        return inner.write(srcs, offset, length);
    }

    @Override
    public long position() throws IOException {
        return inner.position();
    }

    @Override
    public FileChannel position(long newPosition) throws IOException {
        inner.position(newPosition);
        return this;
    }

    @Override
    public long size() throws IOException {
        return inner.size();
    }

    @Override
    public FileChannel truncate(long size) throws IOException {
        inner.truncate(size);
        return this;
    }

    @Override
    public void force(boolean metaData) throws IOException {
        inner.force(metaData);
    }

    @Override
    public long transferTo(long position, long count, WritableByteChannel target) throws IOException {
        return inner.transferTo(position, count, target);
    }

    @Override
    public long transferFrom(ReadableByteChannel src, long position, long count) throws IOException {
        return inner.transferFrom(src, position, count);
    }

    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
        return inner.read(dst, position);
    }

    @Override
    public int write(ByteBuffer src, long position) throws IOException {
        if (full.get()) {
            throw new IOException("No space left on device");
        }
        return inner.write(src, position);
    }

    @Override
    public MappedByteBuffer map(MapMode mode, long position, long size) throws IOException {
        return inner.map(mode, position, size);
    }

    @Override
    public FileLock lock(long position, long size, boolean shared) throws IOException {
        return inner.lock(position, size, shared);
    }

    @Override
    public FileLock tryLock(long position, long size, boolean shared) throws IOException {
        return inner.tryLock(position, size, shared);
    }

    @Override
    protected void implCloseChannel() throws IOException {
        inner.close();
    }
}
