package dev.warden.core.identity;

import java.util.Objects;
import java.util.Set;

/** What an {@link Authenticator} made of a request's credentials. */
public sealed interface Verdict {

    /** The request comes from {@code caller}. */
    record Admitted(Caller caller) implements Verdict {
        public Admitted {
            Objects.requireNonNull(caller, "caller");
        }
    }

    /**
     * The request is refused. What the client sees is fixed by {@code refusal} alone (and the
     * scopes it needs); {@code reason} is for the operator, recorded under the refusal's ref, and
     * may hold a validator's own words.
     *
     * @param scopes the scopes to ask for: those the resource needs (and, for
     *               {@link Refusal#INSUFFICIENT_SCOPE}, those the caller already has besides)
     */
    record Refused(Refusal refusal, Set<String> scopes, String reason) implements Verdict {
        public Refused {
            Objects.requireNonNull(refusal, "refusal");
            scopes = Set.copyOf(scopes);
            Objects.requireNonNull(reason, "reason");
        }
    }

    /**
     * The kinds of refusal, each with its status and its RFC 6750 error code (none for a request
     * that presented nothing, as RFC 6750 section 3.1 asks).
     */
    enum Refusal {
        /** No credential at all: 401 and a challenge naming the metadata. */
        MISSING(401, ""),
        /** A credential that is not valid (malformed, expired, wrong audience, bad signature, unknown key): 401. */
        INVALID_TOKEN(401, "invalid_token"),
        /** A malformed request (two credentials, an unknown scheme): 400. */
        INVALID_REQUEST(400, "invalid_request"),
        /** A valid credential without the scopes needed: 403, and the scopes to step up to. */
        INSUFFICIENT_SCOPE(403, "insufficient_scope");

        private final int status;
        private final String error;

        Refusal(int status, String error) {
            this.status = status;
            this.error = error;
        }

        public int status() {
            return status;
        }

        /** The RFC 6750 {@code error} attribute; empty for {@link #MISSING}. */
        public String error() {
            return error;
        }
    }
}
