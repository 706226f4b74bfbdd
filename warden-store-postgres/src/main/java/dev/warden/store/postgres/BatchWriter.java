package dev.warden.store.postgres;

import dev.warden.core.incident.FailureNotice;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Groups records into one insert transaction: the writer takes the first record waiting, then
 * more until it has {@code batchSize} or {@code linger} has passed, inserts them all and commits.
 * Each record's future completes when its batch commits (or fails with the batch), so a caller
 * that waits on it knows its record is durable in PostgreSQL. One virtual thread and one
 * connection per writer; the connection is reopened after a failure.
 */
final class BatchWriter<T> implements AutoCloseable {

    /** Inserts one batch on the connection (auto-commit off); the writer commits. */
    @FunctionalInterface
    interface Insert<T> {
        void insert(Connection c, List<T> batch) throws SQLException;
    }

    /** Makes the writers of one store: its database, settings and clock. */
    record Factory(Database db, PostgresSettings settings, Clock clock) {
        <T> BatchWriter<T> writer(Partitions partitions, Function<T, Instant> time, Insert<T> insert) {
            return new BatchWriter<>(db, partitions, time, insert, settings, clock);
        }
    }

    private record Pending<T>(T item, CompletableFuture<Void> done) {
    }

    private static final System.Logger LOG = System.getLogger(BatchWriter.class.getName());
    /** How often a store found failing may try PostgreSQL again when asked whether it records. */
    private static final Duration PROBE_PERIOD = Duration.ofSeconds(1);

    private final Database db;
    private final Partitions partitions;
    private final Function<T, Instant> time;
    private final Insert<T> insert;
    private final int batchSize;
    private final long lingerNanos;
    private final BlockingQueue<Pending<T>> queue;
    private final Clock clock;
    private final FailureNotice notice;
    private final Thread thread;
    private Connection connection;
    private volatile boolean closed;
    private volatile boolean failing;
    private volatile Instant nextProbe = Instant.MIN;

    BatchWriter(Database db, Partitions partitions, Function<T, Instant> time, Insert<T> insert,
            PostgresSettings settings, Clock clock) {
        this.db = db;
        this.partitions = partitions;
        this.time = time;
        this.insert = insert;
        this.batchSize = settings.batchSize();
        this.lingerNanos = settings.linger().toNanos();
        this.queue = new LinkedBlockingQueue<>(settings.queueCapacity());
        this.clock = clock;
        this.notice = new FailureNotice(LOG, "the PostgreSQL store's " + partitions.table() + " writer ("
                + settings.redactedUrl() + ")", clock, FailureNotice.DEFAULT_PERIOD);
        this.thread = Thread.ofVirtual().name("warden-pg-" + partitions.table()).start(this::run);
    }

    /**
     * Queues a record; the future completes when its batch commits. A full queue or a closed writer
     * is refused here, by the caller's thread, so that a refusal is never confused with a batch the
     * writer already tried and failed: only the former may be reported to a caller that does not wait.
     */
    CompletableFuture<Void> submit(T item) throws SQLException {
        if (closed) {
            throw new SQLException("the PostgreSQL store is closed", "08003");
        }
        CompletableFuture<Void> done = new CompletableFuture<>();
        if (!queue.offer(new Pending<>(item, done))) {
            throw new SQLException("the PostgreSQL store's queue is full ("
                    + queue.size() + " records wait for the database)", "53000");
        }
        return done;
    }

    /** False from a failed batch until one commits (or a probe connects). */
    boolean failing() {
        return failing;
    }

    /**
     * Whether records would be written now: while failing, tries a connection at most once a
     * second (by the clock), so a fail-closed gateway learns PostgreSQL is back without a write.
     */
    boolean healthy() {
        if (!failing) {
            return true;
        }
        Instant now = clock.instant();
        if (!now.isBefore(nextProbe)) {
            nextProbe = now.plus(PROBE_PERIOD);
            try (Connection c = db.open()) {
                if (c.isValid(3)) {
                    ok();
                }
            } catch (SQLException e) {
                notice.failed(e);
            }
        }
        return !failing;
    }

    private void run() {
        List<Pending<T>> batch = new ArrayList<>(batchSize);
        while (!closed || !queue.isEmpty()) {
            try {
                Pending<T> first = queue.poll(100, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                batch.add(first);
                long deadline = System.nanoTime() + lingerNanos;
                while (batch.size() < batchSize) {
                    queue.drainTo(batch, batchSize - batch.size());
                    long left = deadline - System.nanoTime();
                    if (batch.size() >= batchSize || left <= 0) {
                        break;
                    }
                    Pending<T> next = queue.poll(left, TimeUnit.NANOSECONDS);
                    if (next == null) {
                        break;
                    }
                    batch.add(next);
                }
                write(batch);
            } catch (InterruptedException e) {
                closed = true;
            } finally {
                batch.clear();
            }
        }
        disconnect();
    }

    private void write(List<Pending<T>> batch) {
        List<T> items = new ArrayList<>(batch.size());
        List<LocalDate> days = new ArrayList<>(batch.size());
        for (Pending<T> p : batch) {
            items.add(p.item());
            days.add(Partitions.day(time.apply(p.item())));
        }
        try {
            if (connection == null) {
                connection = db.open();
            }
            partitions.ensure(connection, days);
            connection.setAutoCommit(false);
            insert.insert(connection, items);
            connection.commit();
            ok();
            batch.forEach(p -> p.done().complete(null));
        } catch (SQLException e) {
            if (isDataError(e) && connection != null) {
                alone(batch); // one record PostgreSQL refuses must not take its batch with it
                return;
            }
            failed(batch, e);
        } catch (RuntimeException e) {
            failed(batch, e);
        }
    }

    /** A record's values refused (a check, a value out of range): the database itself is fine. */
    private static boolean isDataError(SQLException e) {
        String state = e.getSQLState();
        return state != null && (state.startsWith("22") || state.startsWith("23"));
    }

    /** Each record in a transaction of its own: those PostgreSQL takes are committed, the others fail alone. */
    private void alone(List<Pending<T>> batch) {
        try {
            connection.rollback();
            for (Pending<T> p : batch) {
                try {
                    insert.insert(connection, List.of(p.item()));
                    connection.commit();
                    p.done().complete(null);
                } catch (SQLException e) {
                    connection.rollback();
                    if (!isDataError(e)) {
                        throw e;
                    }
                    p.done().completeExceptionally(e);
                }
            }
            ok();
        } catch (SQLException e) {
            failed(batch.stream().filter(p -> !p.done().isDone()).toList(), e);
        }
    }

    private void failed(List<Pending<T>> batch, Exception e) {
        failing = true;
        notice.failed(e instanceof SQLException s ? new SQLException(Database.describe(s), s.getSQLState()) : e);
        disconnect();
        batch.forEach(p -> p.done().completeExceptionally(e));
    }

    private void ok() {
        failing = false;
        notice.succeeded();
    }

    private void disconnect() {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException e) {
                // a connection that cannot close has nothing more to give
            }
            connection = null;
        }
    }

    /** Stops taking records, writes those queued (within {@code bound}), then closes the connection. */
    void close(Duration bound) {
        closed = true;
        try {
            if (!thread.join(bound)) {
                thread.interrupt();
                thread.join(Duration.ofSeconds(1));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Pending<T> left;
        while ((left = queue.poll()) != null) {
            left.done().completeExceptionally(new SQLException("the PostgreSQL store closed first", "08003"));
        }
    }

    @Override
    public void close() {
        close(Duration.ofSeconds(10));
    }
}
