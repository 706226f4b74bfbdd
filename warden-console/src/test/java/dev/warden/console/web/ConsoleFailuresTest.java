package dev.warden.console.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.console.Console;
import dev.warden.console.feed.ConsoleFeed;
import dev.warden.core.error.ErrorCode;
import dev.warden.core.error.Ref;
import dev.warden.core.identity.Authenticator;
import dev.warden.core.identity.Credentials;
import dev.warden.core.identity.ProtectedResourceMetadata;
import dev.warden.core.identity.Verdict;
import dev.warden.core.incident.Incident;
import dev.warden.core.incident.IncidentStore;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What the console answers when its own parts fail or are overwhelmed: a fixed answer with every
 * security header, never the failure's text, and never more pages made at once than it allows.
 */
class ConsoleFailuresTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final String SECRET = "jdbc:postgresql://db.internal:5432/warden password=hunter2";

    private Console console;

    @AfterEach
    void stop() {
        if (console != null) {
            console.close();
        }
    }

    private HttpResponse<String> get(String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(console.uri().resolve(path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static void assertFixedFailure(HttpResponse<String> r, int status) {
        assertThat(r.statusCode()).isEqualTo(status);
        assertThat(r.headers().firstValue("Content-Security-Policy")).contains(Security.CONTENT_SECURITY_POLICY);
        assertThat(r.headers().firstValue("X-Content-Type-Options")).contains("nosniff");
        assertThat(r.headers().firstValue("Cache-Control")).contains("no-store");
        assertThat(r.body()).doesNotContain("hunter2", "db.internal");
    }

    /** An incident store that fails as a store that lost its database does. */
    private static final class FailingStore implements IncidentStore {
        @Override
        public void record(Incident incident) {
        }

        @Override
        public Optional<Incident> find(Ref ref) {
            throw new java.io.UncheckedIOException(new java.io.IOException(SECRET));
        }

        @Override
        public List<Incident> list(Instant since, Optional<Instant> until, Optional<ErrorCode> code, int limit) {
            throw new IllegalStateException(SECRET);
        }

        @Override
        public void close() {
        }
    }

    @Test
    void anIncidentStoreThatCannotBeReadIsAFixed500() throws Exception {
        console = Console.builder().feed(ConsoleFeed.of(Clock.systemUTC())).incidents(new FailingStore()).build()
                .start();

        assertFixedFailure(get("/incidents"), 500);
        assertFixedFailure(get("/incidents/" + Ref.random().value()), 500);
        assertFixedFailure(get("/pins"), 500);
        assertThat(get("/").statusCode()).as("the pages that do not read it still work").isEqualTo(200);
    }

    @Test
    void anAuthenticatorThatFailsIsAFixed500NotADroppedConnection() throws Exception {
        Authenticator broken = new Authenticator() {
            @Override
            public Verdict authenticate(Credentials credentials, URI resource) {
                throw new IllegalStateException("introspection at " + SECRET + " failed");
            }

            @Override
            public ProtectedResourceMetadata metadata(URI resource) {
                throw new UnsupportedOperationException();
            }
        };
        console = Console.builder().feed(ConsoleFeed.of(Clock.systemUTC()))
                .auth(broken, () -> URI.create("http://127.0.0.1:1/mcp"), "warden:admin").build().start();

        assertFixedFailure(get("/"), 500);
    }

    /** An incident store whose reads wait until the test lets them go, counting those waiting. */
    private static final class HeldStore implements IncidentStore {
        final CountDownLatch release = new CountDownLatch(1);
        final CountDownLatch entered;

        HeldStore(int readers) {
            entered = new CountDownLatch(readers);
        }

        @Override
        public void record(Incident incident) {
        }

        @Override
        public Optional<Incident> find(Ref ref) {
            return Optional.empty();
        }

        @Override
        public List<Incident> list(Instant since, Optional<Instant> until, Optional<ErrorCode> code, int limit) {
            entered.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return List.of();
        }

        @Override
        public void close() {
        }
    }

    @Test
    void pagesBeyondTheOnesBeingMadeAreRefusedNotQueuedInMemory() throws Exception {
        HeldStore store = new HeldStore(ConsoleHandler.MAX_PAGES);
        console = Console.builder().feed(ConsoleFeed.of(Clock.systemUTC())).incidents(store).build().start();
        List<CompletableFuture<HttpResponse<String>>> held = new ArrayList<>();
        for (int i = 0; i < ConsoleHandler.MAX_PAGES; i++) {
            held.add(HTTP.sendAsync(HttpRequest.newBuilder(console.uri().resolve("/incidents")).build(),
                    HttpResponse.BodyHandlers.ofString()));
        }
        assertThat(store.entered.await(30, TimeUnit.SECONDS)).as("every allowed page is being made").isTrue();

        // a bound on the wait only so that a console that queues it fails here instead of hanging
        HttpResponse<String> more = HTTP.send(HttpRequest.newBuilder(console.uri().resolve("/incidents"))
                .timeout(java.time.Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
        store.release.countDown();

        assertFixedFailure(more, 503);
        assertThat(more.headers().firstValue("Retry-After")).isPresent();
        for (CompletableFuture<HttpResponse<String>> page : held) {
            assertThat(page.get(30, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        }
        assertThat(get("/incidents").statusCode()).as("free again").isEqualTo(200);
    }
}
