package dev.warden.gateway.auditlog;

import java.io.IOException;

/** Where audit records go. A sink that throws is broken: with fail-closed on, calls are then refused. */
@FunctionalInterface
public interface AuditSink {

    void record(AuditRecord record) throws IOException;

    static AuditSink none() {
        return r -> { };
    }
}
