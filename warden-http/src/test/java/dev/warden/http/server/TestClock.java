package dev.warden.http.server;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicReference;

/** A clock the test moves by hand. */
final class TestClock implements InstantSource {

    private final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-01-01T00:00:00Z"));

    @Override
    public Instant instant() {
        return now.get();
    }

    void advance(Duration by) {
        now.updateAndGet(t -> t.plus(by));
    }
}
