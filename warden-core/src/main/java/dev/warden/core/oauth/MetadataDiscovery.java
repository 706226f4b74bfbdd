package dev.warden.core.oauth;

import java.io.IOException;
import java.net.URI;
import java.util.Optional;
import java.util.function.Function;
import tools.jackson.databind.JsonNode;

/**
 * Finds an issuer's authorization server metadata: each of {@link WellKnown#authorizationServer}
 * in turn, the first document the caller can use wins, and it must name the issuer it was asked
 * for (RFC 8414 section 3.3: exact string comparison), or an attacker able to serve it could swap
 * in its own endpoints and keys. How a location is read (what counts as absent, whether a
 * transport failure ends the search) is the caller's, as is what it needs from the document.
 */
public final class MetadataDiscovery {

    /** Reads one location: its JSON document, empty when none is there. */
    @FunctionalInterface
    public interface Fetch {
        Optional<JsonNode> at(URI location) throws IOException;
    }

    /** What the search came to. */
    public sealed interface Outcome<T> {
        /** The first usable document, read by the caller, at {@code location}. */
        record Found<T>(URI location, T metadata) implements Outcome<T> {
        }

        /** The first usable document names another issuer than the one asked for. */
        record OtherIssuer<T>(URI location) implements Outcome<T> {
        }

        /** No location held a usable document; {@code failures} the fetch errors met, {@code ""} if none. */
        record Absent<T>(String failures) implements Outcome<T> {
        }
    }

    private MetadataDiscovery() {
    }

    /**
     * @param read what the caller needs from a document; empty when it cannot use it (the next
     *             location is tried)
     */
    public static <T> Outcome<T> authorizationServer(URI issuer, Fetch fetch, Function<JsonNode, Optional<T>> read) {
        StringBuilder failures = new StringBuilder();
        for (URI at : WellKnown.authorizationServer(issuer)) {
            Optional<JsonNode> doc;
            try {
                doc = fetch.at(at);
            } catch (IOException e) {
                failures.append(failures.isEmpty() ? "" : "; ").append(e.getMessage());
                continue;
            }
            Optional<T> usable = doc.flatMap(read);
            if (usable.isEmpty()) {
                continue;
            }
            JsonNode named = doc.get().path("issuer");
            if (!named.isString() || !issuer.toString().equals(named.stringValue())) {
                return new Outcome.OtherIssuer<>(at);
            }
            return new Outcome.Found<>(at, usable.get());
        }
        return new Outcome.Absent<>(failures.toString());
    }
}
