package dev.warden.console.web;

import dev.warden.console.feed.ConsoleFeed;
import dev.warden.core.incident.IncidentStore;
import dev.warden.gateway.auditlog.AuditLogReader;
import dev.warden.gateway.view.UpstreamState;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * What the console's pages are made from, all read only: the gateway's upstreams now, the feed
 * teed from its audit records, its incident store (absent: the incident pages say so) and its
 * audit store (absent: the audit tail is the feed's, this process's records since it started).
 */
public record Sources(Supplier<List<UpstreamState>> upstreams, ConsoleFeed feed, Optional<IncidentStore> incidents,
        Optional<AuditLogReader> auditLog, Clock clock) {

    public Sources {
        Objects.requireNonNull(upstreams, "upstreams");
        Objects.requireNonNull(feed, "feed");
        Objects.requireNonNull(incidents, "incidents");
        Objects.requireNonNull(auditLog, "auditLog");
        Objects.requireNonNull(clock, "clock");
    }
}
