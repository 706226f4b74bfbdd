package dev.warden.store.postgres;

import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.output.MigrateResult;

/**
 * The schema, brought up to date by Flyway from {@code db/migration/warden}. Flyway holds a
 * PostgreSQL advisory lock while it migrates, so replicas starting together apply each migration
 * once: the others wait, then find it applied.
 */
final class Migrations {

    private Migrations() {
    }

    /** Applies what is missing; returns how many migrations this call applied. */
    static int migrate(Database db) {
        Flyway flyway = Flyway.configure(Migrations.class.getClassLoader())
                .dataSource(db.dataSource())
                .schemas(db.schema())
                .defaultSchema(db.schema())
                .createSchemas(true)
                .table("warden_schema_history")
                .locations("classpath:db/migration/warden")
                // A schema with tables of Warden's from before Flyway would be taken as migrated; there is none.
                .baselineOnMigrate(false)
                .load();
        MigrateResult result = flyway.migrate();
        return result.migrationsExecuted;
    }
}
