package dev.warden.gateway.auditlog;

import java.util.List;

/**
 * Reading an audit store back: the embedded file log ({@link FileAuditLog#reader}) or PostgreSQL's
 * table, whichever the gateway writes to. One way to read both, for {@code warden audit-log} and
 * the console's audit tail alike.
 */
@FunctionalInterface
public interface AuditLogReader {

    /**
     * The records the query asks for, newest first, at most its limit.
     *
     * @throws java.io.UncheckedIOException when the store cannot be read now
     */
    List<AuditRecord> list(AuditQuery query);
}
