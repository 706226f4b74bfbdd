package dev.warden.store.postgres;

import dev.warden.gateway.auditlog.AuditLogReader;
import dev.warden.gateway.auditlog.AuditQuery;
import dev.warden.gateway.auditlog.AuditRecord;
import dev.warden.gateway.auditlog.AuditSink;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Audit records in PostgreSQL's {@code warden_audit}, one row per request, batched.
 *
 * <p>With {@link PostgresSettings#waitForCommit()} (a fail-closed gateway) {@link #record} returns
 * only once the record's batch has committed and throws when it could not be: the gateway then
 * refuses the call, so every answer a client received has its record committed. Without it,
 * {@code record} queues and returns at once, and throws only when the queue is full: records
 * queued and not yet committed are lost if the process dies, or while PostgreSQL is away (each
 * failed batch is logged, once a minute at most).
 */
public final class PostgresAuditLog implements AuditSink, AuditLogReader, AutoCloseable {

    static final String TABLE = "warden_audit";

    private final Database db;
    private final PostgresSettings settings;
    private final BatchWriter<AuditRecord> writer;

    PostgresAuditLog(Database db, PostgresSettings settings, BatchWriter.Factory factory) {
        this.db = db;
        this.settings = settings;
        this.writer = factory.writer(new Partitions(TABLE), AuditRecord::time, PostgresAuditLog::insert);
    }

    private static void insert(Connection c, List<AuditRecord> records) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("INSERT INTO " + TABLE + " (at, client, upstream, method, tool, "
                + "duration_ms, outcome, code, ref, subject, client_id, issuer, kind) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)")) {
            for (AuditRecord r : records) {
                Text.set(s, 1, r.time());
                Text.set(s, 2, r.client());
                Text.set(s, 3, r.upstream());
                Text.set(s, 4, r.method());
                Text.set(s, 5, r.tool());
                s.setDouble(6, r.duration().toNanos() / 1_000_000.0);
                Text.set(s, 7, r.outcome().name());
                Text.set(s, 8, r.code());
                Text.set(s, 9, r.ref());
                Text.set(s, 10, r.subject());
                Text.set(s, 11, r.clientId());
                Text.set(s, 12, r.issuer());
                Text.set(s, 13, r.kind());
                s.addBatch();
            }
            s.executeBatch();
        }
    }

    @Override
    public void record(AuditRecord record) throws IOException {
        CompletableFuture<Void> done;
        try {
            done = writer.submit(record);
        } catch (SQLException refused) {
            throw failure(refused);
        }
        if (!settings.waitForCommit()) {
            return; // queued: a batch that fails later is the writer's to log, not this caller's
        }
        // The record is queued and will be committed whatever this thread does: an interrupt (the
        // recorded request cancelled by its client) cannot take it back, only lose word of its
        // commit, and a record the gateway took for unwritten makes it refuse every client's calls.
        // So the wait, bounded by commitTimeout, goes on, and the interrupt is kept for the caller.
        long deadline = System.nanoTime() + settings.commitTimeout().toNanos();
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    done.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                    return;
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (ExecutionException e) {
                    throw failure(e.getCause());
                } catch (TimeoutException e) {
                    throw new IOException("the audit record was not committed to PostgreSQL within "
                            + settings.commitTimeout().toMillis() + " ms");
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static IOException failure(Throwable cause) {
        return new IOException("the audit record could not be written to PostgreSQL: "
                + (cause instanceof SQLException s ? Database.describe(s) : cause.toString()));
    }

    /** Whether records are being written: false from a failed batch until PostgreSQL answers again. */
    public boolean recording() {
        return writer.healthy();
    }

    @Override
    public List<AuditRecord> list(AuditQuery query) {
        StringBuilder sql = new StringBuilder("SELECT at, client, upstream, method, tool, duration_ms, outcome, code, "
                + "ref, subject, client_id, issuer, kind FROM " + TABLE + " WHERE at >= ?");
        List<Object> args = new ArrayList<>();
        args.add(query.since());
        query.until().ifPresent(u -> {
            sql.append(" AND at < ?");
            args.add(u);
        });
        query.tool().ifPresent(t -> {
            sql.append(" AND tool = ?");
            args.add(t);
        });
        query.subject().ifPresent(t -> {
            sql.append(" AND subject = ?");
            args.add(t);
        });
        query.outcome().ifPresent(o -> {
            sql.append(" AND outcome = ?");
            args.add(o.name());
        });
        sql.append(" ORDER BY at DESC LIMIT ?");
        args.add(query.limit());
        try (Connection c = db.open(); PreparedStatement s = c.prepareStatement(sql.toString())) {
            Queries.bind(s, args);
            List<AuditRecord> out = new ArrayList<>();
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    out.add(new AuditRecord(rs.getTimestamp(1).toInstant(), rs.getString(2), text(rs, 3),
                            rs.getString(4), text(rs, 5), Duration.ofNanos(Math.round(rs.getDouble(6) * 1_000_000)),
                            AuditRecord.Outcome.valueOf(rs.getString(7)), text(rs, 8), text(rs, 9), text(rs, 10),
                            text(rs, 11), text(rs, 12), text(rs, 13)));
                }
            }
            return out;
        } catch (SQLException e) {
            throw Queries.unreadable("the audit log", e);
        }
    }

    private static Optional<String> text(ResultSet rs, int column) throws SQLException {
        return Optional.ofNullable(rs.getString(column));
    }

    @Override
    public void close() {
        writer.close();
    }
}
