package dev.warden.http.server;

import dev.warden.core.identity.Authenticator;
import dev.warden.core.identity.Credentials;
import dev.warden.core.identity.ProtectedResourceMetadata;
import dev.warden.core.identity.Verdict;
import java.net.URI;
import java.util.List;
import java.util.Set;

/** Refuses every request, as if no token were good: for tests of what a refusal sends. */
final class NobodyAuthenticator implements Authenticator {

    @Override
    public Verdict authenticate(Credentials credentials, URI resource) {
        return new Verdict.Refused(Verdict.Refusal.MISSING, Set.of(), "no token");
    }

    @Override
    public ProtectedResourceMetadata metadata(URI resource) {
        return new ProtectedResourceMetadata(resource, List.of(URI.create("https://as.example")), List.of());
    }
}
