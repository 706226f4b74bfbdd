package dev.warden.store.postgres;

import dev.warden.core.error.ErrorCode;
import dev.warden.core.error.Ref;
import dev.warden.core.error.UnrecordedRefs;
import dev.warden.core.incident.Incident;
import dev.warden.core.incident.IncidentJson;
import dev.warden.core.incident.IncidentStore;
import dev.warden.core.json.Json;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Incidents in PostgreSQL's {@code warden_incident}, shared by every replica: a ref handed out by
 * one is found by {@code warden incidents show} anywhere. Written as {@link IncidentJson#atRest}
 * (credentials replaced by markers), batched by a {@link BatchWriter}.
 *
 * <p>With {@link PostgresSettings#waitForCommit()} a {@link #record} returns once its batch has
 * committed; one that could not be written marks its ref {@link UnrecordedRefs unrecorded} before
 * the failure is rendered, and {@link #recording()} turns false, so a fail-closed gateway refuses
 * calls until PostgreSQL answers again. Without it, {@code record} only queues: what is queued and
 * not yet committed (at most a linger's worth, or what piled up while PostgreSQL was away) is lost
 * if the process dies, and its ref was already handed out.
 */
public final class PostgresIncidentStore implements IncidentStore {

    static final String TABLE = "warden_incident";

    /** One incident as its row: the columns listings filter on, and the whole record. */
    record Row(Incident incident, String json) {
    }

    private final Database db;
    private final PostgresSettings settings;
    private final BatchWriter<Row> writer;

    PostgresIncidentStore(Database db, PostgresSettings settings, BatchWriter.Factory factory) {
        this.db = db;
        this.settings = settings;
        this.writer = factory.writer(new Partitions(TABLE), r -> r.incident().time(), PostgresIncidentStore::insert);
    }

    private static void insert(Connection c, List<Row> rows) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("INSERT INTO " + TABLE
                + " (ref, at, code, method, tool, upstream, subject, client_id, record) VALUES (?,?,?,?,?,?,?,?,?)")) {
            for (Row row : rows) {
                Incident i = row.incident();
                Text.set(s, 1, i.ref().value());
                Text.set(s, 2, i.time());
                Text.set(s, 3, i.code().name());
                Text.set(s, 4, i.method());
                Text.set(s, 5, i.tool());
                Text.set(s, 6, i.upstream());
                Text.set(s, 7, i.subject());
                Text.set(s, 8, i.clientId());
                s.setString(9, row.json()); // JSON text: a NUL is the six characters of its escape
                s.addBatch();
            }
            s.executeBatch();
        }
    }

    @Override
    public void record(Incident incident) {
        CompletableFuture<Void> done;
        try {
            done = writer.submit(new Row(incident, IncidentJson.atRest(incident).toString()));
        } catch (SQLException | RuntimeException e) { // refused (queue full, store closed): never queued
            UnrecordedRefs.mark(incident.ref());
            return;
        }
        if (!settings.waitForCommit()) {
            return;
        }
        try {
            done.get(settings.commitTimeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            UnrecordedRefs.mark(incident.ref());
        } catch (InterruptedException e) {
            UnrecordedRefs.mark(incident.ref());
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public boolean recording() {
        return writer.healthy();
    }

    @Override
    public Optional<Incident> find(Ref ref) {
        Objects.requireNonNull(ref, "ref");
        List<Incident> found = query("SELECT record FROM " + TABLE + " WHERE ref = ? LIMIT 1",
                List.of(ref.value()));
        return found.stream().findFirst();
    }

    @Override
    public List<Incident> list(Instant since, Optional<Instant> until, Optional<ErrorCode> code, int limit) {
        return list(since, until, code, Optional.empty(), Optional.empty(), limit);
    }

    /** Incidents at or after {@code since}, newest first, optionally of one code, tool and subject. */
    public List<Incident> list(Instant since, Optional<ErrorCode> code, Optional<String> tool,
            Optional<String> subject, int limit) {
        return list(since, Optional.empty(), code, tool, subject, limit);
    }

    /**
     * Incidents at or after {@code since} and before {@code until} when given, newest first,
     * optionally of one code, tool and subject.
     */
    public List<Incident> list(Instant since, Optional<Instant> until, Optional<ErrorCode> code,
            Optional<String> tool, Optional<String> subject, int limit) {
        Objects.requireNonNull(since, "since");
        Objects.requireNonNull(until, "until");
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be at least 1, got " + limit);
        }
        StringBuilder sql = new StringBuilder("SELECT record FROM " + TABLE + " WHERE at >= ?");
        List<Object> args = new ArrayList<>();
        args.add(since);
        until.ifPresent(u -> {
            sql.append(" AND at < ?");
            args.add(u);
        });
        code.ifPresent(c -> {
            sql.append(" AND code = ?");
            args.add(c.name());
        });
        tool.ifPresent(t -> {
            sql.append(" AND tool = ?");
            args.add(t);
        });
        subject.ifPresent(s -> {
            sql.append(" AND subject = ?");
            args.add(s);
        });
        sql.append(" ORDER BY at DESC LIMIT ?");
        args.add(limit);
        return query(sql.toString(), args);
    }

    private List<Incident> query(String sql, List<Object> args) {
        try (Connection c = db.open(); PreparedStatement s = c.prepareStatement(sql)) {
            Queries.bind(s, args);
            List<Incident> out = new ArrayList<>();
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    out.add(IncidentJson.fromJson(Json.mapper().readTree(rs.getString(1))));
                }
            }
            return out;
        } catch (SQLException e) {
            throw Queries.unreadable("the incident store", e);
        }
    }

    @Override
    public void close() {
        writer.close();
    }
}
