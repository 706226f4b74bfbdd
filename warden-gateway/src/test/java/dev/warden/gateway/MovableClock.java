package dev.warden.gateway;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;

/** A clock the test moves on by hand: expiry is tested without waiting for it. */
final class MovableClock implements InstantSource {

    private volatile Instant now = Instant.parse("2026-11-24T00:00:00Z");

    @Override
    public Instant instant() {
        return now;
    }

    void advance(Duration by) {
        now = now.plus(by);
    }
}
