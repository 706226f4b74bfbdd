package dev.warden.cli;

import dev.warden.core.incident.FileIncidentStore;
import dev.warden.core.incident.IncidentStore;
import dev.warden.gateway.auditlog.AuditLogReader;
import dev.warden.gateway.auditlog.FileAuditLog;
import dev.warden.gateway.config.ConfigException;
import dev.warden.gateway.config.GatewayConfig;
import dev.warden.store.postgres.PostgresSettings;
import dev.warden.store.postgres.PostgresStore;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * Which store {@code warden incidents} reads: the gateway's configuration ({@code --config}: its
 * {@code postgres} section, else its data directory), PostgreSQL directly ({@code --postgres}), or
 * the data directory. With PostgreSQL, any machine that reaches the database reads what every
 * replica wrote.
 */
final class StoreSource {

    @Option(names = "--config", paramLabel = "FILE",
            description = "Read the store the gateway's configuration names: PostgreSQL when it has a postgres "
                    + "section, else its dataDir.")
    Path config;

    @Option(names = "--postgres", paramLabel = "URL",
            description = "Read from PostgreSQL: postgresql://USER:PASSWORD@HOST:PORT/DATABASE; $${NAME} is replaced by "
                    + "the environment variable (keep the password out of the command line).")
    String postgres;

    @Option(names = "--postgres-schema", paramLabel = "SCHEMA", defaultValue = "warden",
            description = "The schema of Warden's tables (default: ${DEFAULT-VALUE}).")
    String schema;

    /** The PostgreSQL store to read, when one is named. */
    Optional<PostgresSettings> postgres() {
        if (postgres != null) {
            try {
                return Optional.of(PostgresSettings.of(fromEnvironment(postgres)).withSchema(schema));
            } catch (IllegalArgumentException e) {
                throw new ConfigException("--postgres: " + e.getMessage());
            }
        }
        if (config != null) {
            return GatewayConfig.load(config).postgres().map(Stores::settings);
        }
        return Optional.empty();
    }

    /** The incident store to read, and where it is for messages (never with the password). */
    record Opened(IncidentStore store, String where, Optional<PostgresStore> postgres) implements AutoCloseable {
        @Override
        public void close() {
            if (postgres.isPresent()) {
                postgres.get().close();
            } else {
                store.close();
            }
        }
    }

    Opened open(DataDirOption dataDir) {
        Optional<PostgresSettings> pg = postgres();
        if (pg.isPresent()) {
            PostgresStore reader = PostgresStore.openReader(pg.get());
            return new Opened(reader.incidents(), "PostgreSQL " + pg.get().redactedUrl() + " (schema "
                    + pg.get().schema() + ")", Optional.of(reader));
        }
        FileIncidentStore files = FileIncidentStore.openReadOnly(incidentsDir(dataDir));
        return new Opened(files, files.directory().toString(), Optional.empty());
    }

    /** The audit log to read (a failure to read it names where it is, never with the password). */
    record OpenedAudit(AuditLogReader log, Optional<PostgresStore> postgres) implements AutoCloseable {
        @Override
        public void close() {
            postgres.ifPresent(PostgresStore::close);
        }
    }

    /** PostgreSQL's audit table when one is named, else the file log beside the incident store (as the gateway keeps it). */
    OpenedAudit openAudit(DataDirOption dataDir) {
        Optional<PostgresSettings> pg = postgres();
        if (pg.isPresent()) {
            PostgresStore reader = PostgresStore.openReader(pg.get());
            return new OpenedAudit(reader.audit(), Optional.of(reader));
        }
        return new OpenedAudit(FileAuditLog.reader(incidentsDir(dataDir).resolveSibling("audit")), Optional.empty());
    }

    /** The incident store's directory: the configuration's data directory unless --data-dir is given. */
    private Path incidentsDir(DataDirOption dataDir) {
        return config != null && dataDir.dataDir == null
                ? DataDir.incidents(GatewayConfig.load(config).dataDir().orElse(null)) : dataDir.incidents();
    }

    /** {@code ${NAME}} replaced by the environment variable; one that is not set is an error. */
    static String fromEnvironment(String value) {
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < value.length()) {
            int open = value.indexOf("${", i);
            int close = open < 0 ? -1 : value.indexOf('}', open + 2);
            if (open < 0 || close < 0) {
                out.append(value, i, value.length());
                break;
            }
            String name = value.substring(open + 2, close);
            String resolved = System.getenv(name);
            if (resolved == null) {
                throw new ConfigException("--postgres: the environment variable " + name + " is not set");
            }
            out.append(value, i, open).append(resolved);
            i = close + 1;
        }
        return out.toString();
    }
}
