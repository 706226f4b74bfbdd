package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.error.Ref;
import java.util.List;

/** What must never reach a client from the demo server, whatever the failure. */
final class Leaks {

    /** Internals the demo's failures carry in their exceptions: class names, frames, paths, SQL, secrets. */
    static final List<String> INTERNALS = List.of(
            "Exception", "exception", "\tat ", "at dev.warden", ".java:", "org.h2", "java.",
            "/var/lib", "2026-Q3.csv", "hunter2", "corp.internal", "8443",
            "UQ_USERS", "uq_users", "USERS(", "PUBLIC.", "INSERT INTO", "SQL statement", "23505", "password_hash");

    /** Values the e2e client sends in bad arguments; none may be echoed back. */
    static final List<String> CALLER_INPUT = List.of(
            "not-an-email", "sk_live_probe_value_123", "secretProbe", "zz_injected_key", "usa",
            "drop_tables_probe_tool", "doc-404", "nobody@example.com");

    private static final int REF_LENGTH = "ref_".length() + 16;

    private Leaks() {
    }

    static void assertNothingLeaks(String received) {
        received = withoutRefs(received);
        for (String internal : INTERNALS) {
            assertThat(received).as("internal detail %s", internal).doesNotContain(internal);
        }
        for (String input : CALLER_INPUT) {
            assertThat(received).as("echo of caller input %s", input).doesNotContain(input);
        }
    }

    /** A ref is random, so it may spell a short marker ("usa" came up once in CI); refs are blanked first. */
    private static String withoutRefs(String received) {
        StringBuilder kept = new StringBuilder(received.length());
        int from = 0;
        for (int at = received.indexOf("ref_"); at >= 0; at = received.indexOf("ref_", at + 1)) {
            int end = at + REF_LENGTH;
            if (end <= received.length() && Ref.isWellFormed(received.substring(at, end))) {
                kept.append(received, from, at).append("ref_*");
                from = end;
                at = end - 1;
            }
        }
        return kept.append(received.substring(from)).toString();
    }
}
