package dev.warden.audit;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One of the two callers the authorization probes compare ({@link Audit.Builder#callers}): the
 * headers its HTTP requests carry (its own API key or token), and an account it logs in with
 * through the server's login tool, if the server knows its callers that way. Reports name a caller
 * by its number only; {@link #toString()} shows no value.
 *
 * @param headers the headers of this caller's requests (over HTTP; ignored for stdio)
 * @param account an account and password to log in with, on this caller's own connection
 */
public record Caller(Map<String, String> headers, Optional<Account> account) {

    public Caller {
        headers = Map.copyOf(Objects.requireNonNull(headers, "headers"));
        Objects.requireNonNull(account, "account");
    }

    /** An account for the server's login tool; neither part is ever shown. */
    public record Account(String name, String password) {
        public Account {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(password, "password");
            if (name.isBlank()) {
                throw new IllegalArgumentException("an account needs a name");
            }
        }

        @Override
        public String toString() {
            return "Account[redacted]";
        }
    }

    @Override
    public String toString() {
        return "Caller[headers: " + new java.util.TreeSet<>(headers.keySet()) + (account.isPresent() ? ", an account" : "") + "]";
    }
}
