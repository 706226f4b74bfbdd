package dev.warden.store.postgres;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Incidents and audit records in PostgreSQL, for gateways run as several replicas. {@link #open}
 * brings the schema up to date (Flyway), creates today's and the next days' partitions, drops
 * those past the retention, and keeps doing the last two once an hour on a virtual thread.
 * {@link #openReader} only reads (the {@code warden incidents} command): it changes nothing.
 */
public final class PostgresStore implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(PostgresStore.class.getName());
    /** Partitions made ahead: a day's first write does not wait for DDL, even across midnight. */
    static final int DAYS_AHEAD = 2;
    private static final Duration MAINTENANCE_PERIOD = Duration.ofHours(1);

    private final Database db;
    private final PostgresSettings settings;
    private final Clock clock;
    private final PostgresIncidentStore incidents;
    private final PostgresAuditLog audit;
    private final CountDownLatch closing = new CountDownLatch(1);
    private final Thread maintenance;

    private PostgresStore(PostgresSettings settings, Clock clock, boolean maintain) {
        this.db = new Database(settings);
        this.settings = settings;
        this.clock = clock;
        BatchWriter.Factory writers = new BatchWriter.Factory(db, settings, clock);
        this.incidents = new PostgresIncidentStore(db, settings, writers);
        this.audit = new PostgresAuditLog(db, settings, writers);
        this.maintenance = maintain ? Thread.ofVirtual().name("warden-pg-maintenance").start(this::maintainHourly)
                : null;
    }

    /**
     * Opens the store for a gateway: migrates the schema, prepares partitions, applies retention.
     *
     * @throws SQLException when PostgreSQL cannot be reached or migrated (the message names the
     *     database, never the password)
     * @param clock what days and ages are measured by
     */
    public static PostgresStore open(PostgresSettings settings, Clock clock) throws SQLException {
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(clock, "clock");
        Database db = new Database(settings);
        try {
            Migrations.migrate(db);
        } catch (RuntimeException e) {
            throw new SQLException("cannot migrate the schema " + settings.schema() + " at " + settings.redactedUrl()
                    + ": " + rootMessage(e), "08001");
        }
        PostgresStore store = new PostgresStore(settings, clock, true);
        try {
            store.maintain();
        } catch (SQLException e) {
            store.close();
            throw e;
        }
        return store;
    }

    /** A store that only reads what replicas wrote; it writes, migrates and drops nothing. */
    public static PostgresStore openReader(PostgresSettings settings) {
        return new PostgresStore(Objects.requireNonNull(settings, "settings"), Clock.systemUTC(), false);
    }

    /**
     * Whether PostgreSQL answers now: a fresh connection and {@code SELECT 1} (what the gateway's
     * readiness asks; the writers' own state says only whether their last write failed).
     */
    public boolean reachable() {
        try (java.sql.Connection c = db.open(); java.sql.Statement s = c.createStatement()) {
            s.setQueryTimeout(2);
            return s.execute("SELECT 1");
        } catch (java.sql.SQLException e) {
            return false;
        }
    }

    public PostgresIncidentStore incidents() {
        return incidents;
    }

    public PostgresAuditLog audit() {
        return audit;
    }

    public PostgresSettings settings() {
        return settings;
    }

    /**
     * Creates the partitions of today and the next {@value #DAYS_AHEAD} days and drops those wholly
     * older than the retention, for both tables; returns the days dropped.
     */
    public List<LocalDate> maintain() throws SQLException {
        Instant now = clock.instant();
        LocalDate today = Partitions.day(now);
        List<LocalDate> days = new ArrayList<>();
        for (int i = 0; i <= DAYS_AHEAD; i++) {
            days.add(today.plusDays(i));
        }
        List<LocalDate> dropped = new ArrayList<>();
        try (Connection c = db.open()) {
            for (String table : List.of(PostgresIncidentStore.TABLE, PostgresAuditLog.TABLE)) {
                Partitions p = new Partitions(table);
                p.ensure(c, days);
                dropped.addAll(p.dropBefore(c, now.minus(settings.maxAge())));
            }
        }
        return dropped.stream().distinct().sorted().toList();
    }

    /** The days that have a partition now in {@code table} ({@code warden_incident} or {@code warden_audit}). */
    List<LocalDate> partitionDays(String table) throws SQLException {
        try (Connection c = db.open()) {
            return new Partitions(table).existing(c);
        }
    }

    private void maintainHourly() {
        try {
            while (!closing.await(MAINTENANCE_PERIOD.toMillis(), TimeUnit.MILLISECONDS)) {
                try {
                    maintain();
                } catch (SQLException e) {
                    LOG.log(System.Logger.Level.WARNING, "PostgreSQL store maintenance (partitions, retention) "
                            + "failed, tried again in an hour: {0}", Database.describe(e));
                }
            }
        } catch (InterruptedException e) {
            // closing
        }
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t instanceof SQLException s ? Database.describe(s) : String.valueOf(t.getMessage());
    }

    /** Writes what is queued (within the writers' bound), then stops. */
    @Override
    public void close() {
        closing.countDown();
        incidents.close();
        audit.close();
        if (maintenance != null) {
            maintenance.interrupt();
        }
    }
}
