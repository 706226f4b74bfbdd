package dev.warden.cli;

import dev.warden.core.incident.FileIncidentStore;
import dev.warden.core.incident.IncidentStore;
import dev.warden.gateway.auditlog.AuditLogReader;
import dev.warden.gateway.auditlog.AuditSink;
import dev.warden.gateway.auditlog.FileAuditLog;
import dev.warden.gateway.config.GatewayConfig;
import dev.warden.gateway.config.Postgres;
import dev.warden.gateway.health.CachedProbe;
import dev.warden.gateway.health.HealthCheck;
import dev.warden.store.postgres.PostgresSettings;
import dev.warden.store.postgres.PostgresStore;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

/**
 * Where a gateway keeps incidents and its audit log: PostgreSQL when the configuration has a
 * {@code postgres} section (every replica then writes to and reads from the same tables), else
 * files under the data directory, as always.
 */
final class Stores implements AutoCloseable {

    private final IncidentStore incidents;
    private final AuditSink audit;
    private final AuditLogReader auditLog;
    private final AutoCloseable owner;
    private final Optional<HealthCheck> readiness;

    private Stores(IncidentStore incidents, AuditSink audit, AuditLogReader auditLog, AutoCloseable owner,
                   Optional<HealthCheck> readiness) {
        this.incidents = incidents;
        this.audit = audit;
        this.auditLog = auditLog;
        this.owner = owner;
        this.readiness = readiness;
    }

    /**
     * @param dir the incident store's directory (the audit log goes beside it), when there is no
     *     postgres section
     * @throws SQLException when PostgreSQL is configured and cannot be reached or migrated
     */
    static Stores open(GatewayConfig cfg, Path dir) throws IOException, SQLException {
        if (cfg.postgres().isPresent()) {
            // Fail-closed: each call waits for its record's commit, so an answer means a committed record.
            PostgresStore store = PostgresStore.open(settings(cfg.postgres().get())
                    .withWaitForCommit(cfg.audit().failClosed()), Clock.systemUTC());
            // Ready while the database answers (asked at most once a second, however often /readyz is).
            HealthCheck postgres = HealthCheck.of("postgres", Duration.ofSeconds(4),
                    CachedProbe.of(store::reachable, Duration.ofSeconds(1), Clock.systemUTC()));
            return new Stores(store.incidents(), store.audit(), store.audit(), store, Optional.of(postgres));
        }
        FileIncidentStore files = FileIncidentStore.open(dir, cfg.incidents());
        FileAuditLog log;
        try {
            log = FileAuditLog.open(dir.resolveSibling("audit"), cfg.audit().retention(), Clock.systemUTC());
        } catch (IOException | RuntimeException e) {
            files.close();
            throw e;
        }
        return new Stores(files, log, log, () -> {
            try (files; log) {
                // both closed, the log first
            }
        }, Optional.empty());
    }

    /** The store's settings from the configuration's section (records queued unless the caller waits). */
    static PostgresSettings settings(Postgres p) {
        return PostgresSettings.of(p.url()).withSchema(p.schema()).withMaxAge(p.maxAge())
                .withBatching(p.batchSize(), p.linger());
    }

    /** What the gateway's readiness asks of PostgreSQL, when incidents and audit go there. */
    Optional<HealthCheck> postgresReadiness() {
        return readiness;
    }

    IncidentStore incidents() {
        return incidents;
    }

    AuditSink audit() {
        return audit;
    }

    /** The same audit store read back (the console's audit tail). */
    AuditLogReader auditLog() {
        return auditLog;
    }

    @Override
    public void close() throws Exception {
        owner.close();
    }
}
