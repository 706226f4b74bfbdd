/** Incidents and audit records in PostgreSQL, shared by every gateway replica. */
module dev.warden.store.postgres {
    requires transitive dev.warden.core;
    requires transitive dev.warden.gateway;
    // open() and maintain() throw SQLException.
    requires transitive java.sql;
    requires org.postgresql.jdbc;
    requires flyway.core;

    exports dev.warden.store.postgres;
}
