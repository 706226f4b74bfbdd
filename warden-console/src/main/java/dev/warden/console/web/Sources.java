package dev.warden.console.web;

import dev.warden.console.feed.ConsoleFeed;
import dev.warden.core.incident.IncidentStore;
import dev.warden.gateway.view.UpstreamState;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * What the console's pages are made from, all read only: the gateway's upstreams now, the feed
 * teed from its audit records, and its incident store (absent: the incident pages say so).
 */
public record Sources(Supplier<List<UpstreamState>> upstreams, ConsoleFeed feed, Optional<IncidentStore> incidents,
        Clock clock) {

    public Sources {
        Objects.requireNonNull(upstreams, "upstreams");
        Objects.requireNonNull(feed, "feed");
        Objects.requireNonNull(incidents, "incidents");
        Objects.requireNonNull(clock, "clock");
    }
}
