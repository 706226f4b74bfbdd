package dev.warden.store.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One table's day partitions ({@code TABLE_yyyymmdd}, UTC days): created before a record of that
 * day is inserted, and dropped whole once the day is wholly past the retention. Every change is
 * made under a transaction-scoped advisory lock on the table, so two replicas never race to create
 * (or drop) the same partition.
 */
final class Partitions {

    private static final DateTimeFormatter SUFFIX = DateTimeFormatter.BASIC_ISO_DATE;

    private final String table;
    /** Days known to have a partition: the common case costs no statement. */
    private final Set<LocalDate> known = ConcurrentHashMap.newKeySet();

    Partitions(String table) {
        this.table = table;
    }

    String table() {
        return table;
    }

    static LocalDate day(Instant at) {
        return LocalDate.ofInstant(at, ZoneOffset.UTC);
    }

    /** Makes sure each day has its partition, in a transaction of its own on {@code c} (left in auto-commit off). */
    void ensure(Connection c, Collection<LocalDate> days) throws SQLException {
        List<LocalDate> missing = days.stream().distinct().filter(d -> !known.contains(d)).toList();
        if (missing.isEmpty()) {
            return;
        }
        c.setAutoCommit(false);
        try (Statement s = c.createStatement()) {
            lock(c);
            for (LocalDate d : missing) {
                s.execute("CREATE TABLE IF NOT EXISTS " + name(d) + " PARTITION OF " + table + " FOR VALUES FROM ('"
                        + d + " 00:00:00+00') TO ('" + d.plusDays(1) + " 00:00:00+00')");
            }
            c.commit();
        } catch (SQLException e) {
            c.rollback();
            throw e;
        }
        known.addAll(missing);
    }

    /** Drops every partition whose day ends at or before {@code cutoff}; returns the days dropped. */
    List<LocalDate> dropBefore(Connection c, Instant cutoff) throws SQLException {
        List<LocalDate> dropped = new ArrayList<>();
        c.setAutoCommit(false);
        try (Statement s = c.createStatement()) {
            lock(c);
            for (LocalDate d : existing(c)) {
                if (!d.plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant().isAfter(cutoff)) {
                    s.execute("DROP TABLE IF EXISTS " + name(d));
                    dropped.add(d);
                }
            }
            c.commit();
        } catch (SQLException e) {
            c.rollback();
            throw e;
        }
        dropped.forEach(known::remove);
        return dropped;
    }

    /** The days that have a partition now, oldest first. */
    List<LocalDate> existing(Connection c) throws SQLException {
        List<LocalDate> days = new ArrayList<>();
        try (PreparedStatement q = c.prepareStatement("SELECT child.relname FROM pg_inherits i "
                + "JOIN pg_class child ON child.oid = i.inhrelid JOIN pg_class parent ON parent.oid = i.inhparent "
                + "JOIN pg_namespace n ON n.oid = parent.relnamespace "
                + "WHERE parent.relname = ? AND n.nspname = current_schema() ORDER BY child.relname")) {
            q.setString(1, table);
            try (ResultSet rs = q.executeQuery()) {
                while (rs.next()) {
                    String name = rs.getString(1);
                    if (name.length() == table.length() + 9 && name.startsWith(table + "_")) {
                        try {
                            days.add(LocalDate.parse(name.substring(table.length() + 1), SUFFIX));
                        } catch (RuntimeException e) {
                            // a partition someone else made by hand: not the store's to drop
                        }
                    }
                }
            }
        }
        return days;
    }

    private void lock(Connection c) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(
                "SELECT pg_advisory_xact_lock(hashtext(current_schema() || '.' || ?))")) {
            s.setString(1, table);
            s.execute();
        }
    }

    private String name(LocalDate d) {
        return table + "_" + d.format(SUFFIX);
    }
}
