package dev.warden.audit.canary;

import java.util.List;
import java.util.Objects;

/**
 * What a hostile value can prove about the server when its answer comes back, and how. Every
 * canary is harmless by construction: a shell canary only echoes, a traversal only reads
 * {@code /etc/passwd}, a URL canary points at the audit's own loopback listener, an SQL value only
 * breaks a statement's syntax.
 */
public sealed interface Canary {

    /** The canary in words, for the report: what a confirmed one proved. */
    String proves();

    /**
     * {@code token} (such as {@code wdnprobe-1a2b3c4d-c7}) is sent split by an empty pair of
     * quotes ({@code wdn""probe-…}); it comes back whole only if a shell parsed the value.
     */
    record Shell(String token, String form) implements Canary {
        public Shell {
            Objects.requireNonNull(token, "token");
            Objects.requireNonNull(form, "form");
        }

        @Override
        public String proves() {
            return "a shell ran the probe's " + form + " command: its echo came back assembled";
        }
    }

    /**
     * A path deep enough to reach {@code /} from anywhere, to {@code /etc/passwd}; {@code bases}
     * are the absolute paths the tool's description names (the folder it says it serves).
     */
    record Traversal(String form, List<String> bases) implements Canary {
        public Traversal {
            Objects.requireNonNull(form, "form");
            bases = List.copyOf(bases);
        }

        @Override
        public String proves() {
            return "the " + form + " path reached outside the folder the tool serves";
        }
    }

    /** A URL on the audit's own loopback listener, whose path ends with {@code token}. */
    record Url(String token) implements Canary {
        public Url {
            Objects.requireNonNull(token, "token");
        }

        @Override
        public String proves() {
            return "the server fetched the loopback URL the probe gave: the audit's own listener saw the request";
        }
    }

    /** An SQL-shaped value: confirmed by a database's syntax error that the baseline did not show. */
    record Sql(String form) implements Canary {
        public Sql {
            Objects.requireNonNull(form, "form");
        }

        @Override
        public String proves() {
            return "the " + form + " value broke an SQL statement's syntax: a database error the baseline did not show";
        }
    }

    /**
     * One of a pair of SQL conditions, always true ({@code ' OR '1'='1}) and always false
     * ({@code ' OR '1'='2}): confirmed when the false one is answered as the baseline is and the
     * true one otherwise, what the caller sent taken out of both (a boolean differential).
     */
    record SqlBoolean(String pair, boolean truth) implements Canary {
        public SqlBoolean {
            Objects.requireNonNull(pair, "pair");
        }

        @Override
        public String proves() {
            return "an always-true condition changed the result and an always-false one left it as the baseline: "
                    + "the value was read as SQL";
        }
    }
}
