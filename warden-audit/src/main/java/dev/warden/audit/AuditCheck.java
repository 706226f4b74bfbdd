package dev.warden.audit;

import java.util.List;

/**
 * A check an audit runs once the server has been listed, beside its own probes: tool-definition
 * checks (poisoning, hidden Unicode, pins) and HTTP checks are written against this. Register one
 * with {@link Audit.Builder#check(AuditCheck)}.
 *
 * <p>A check reads what the server listed from the {@link AuditContext}; it must not call the
 * server's tools (the audit owns the budget, the rate and the destructive-tool rule). An HTTP check
 * may make its own requests to {@link AuditContext#target()}'s endpoint. It returns its findings;
 * an exception it throws is reported in {@link Report#skipped()} as the check failing, never as a
 * crash of the audit.
 */
@FunctionalInterface
public interface AuditCheck {

    /** The findings, possibly none; never null. */
    List<Finding> check(AuditContext context);

    /** A short name for the report when the check fails or is skipped; the class name by default. */
    default String name() {
        return getClass().getSimpleName();
    }
}
