package dev.warden.core.incident;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.error.ErrorCode;
import dev.warden.core.error.Ref;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class IncidentTest {

    private static final Instant NOW = Instant.parse("2026-11-22T07:00:00Z");

    private static Incident refused() {
        return new Incident(Ref.random(), NOW, ErrorCode.UPSTREAM_ERROR, "tools/call", Optional.of("search"),
                Optional.of("github"), Optional.empty(), List.of(), List.of());
    }

    @Test
    void anIncidentMadeTheOldWayHasNoArgumentsAndNoReason() {
        Incident incident = refused();

        assertThat(incident.arguments()).isEmpty();
        assertThat(incident.reason()).isEmpty();
    }

    @Test
    void anIncidentFromAnExceptionHasNoArgumentsAndNoReason() {
        Incident incident = new Incident(Ref.random(), NOW, ErrorCode.INTERNAL_ERROR, "tools/call", Optional.empty(),
                Incident.chainOf(new IllegalStateException("boom")));

        assertThat(incident.arguments()).isEmpty();
        assertThat(incident.reason()).isEmpty();
    }

    @Test
    void withReasonKeepsEverythingElse() {
        Incident incident = refused();

        Incident explained = incident.withReason("breaker open for tool search after 5 failures in 10 calls");

        assertThat(explained.reason()).contains("breaker open for tool search after 5 failures in 10 calls");
        assertThat(explained.withReason("")).isEqualTo(incident);
        assertThat(explained.ref()).isEqualTo(incident.ref());
        assertThat(explained.tool()).isEqualTo(incident.tool());
        assertThat(explained.upstream()).isEqualTo(incident.upstream());
    }

    @Test
    void withArgumentsKeepsEverythingElse() {
        Incident incident = refused().withReason("timed out");

        Incident withArguments = incident.withArguments("{\"q\":\"rust\"}");

        assertThat(withArguments.arguments()).contains("{\"q\":\"rust\"}");
        assertThat(withArguments.reason()).contains("timed out");
        assertThat(withArguments.withArguments(" ")).isEqualTo(incident);
    }

    @Test
    void anOverlongReasonIsCutNotRefused() {
        Incident incident = refused().withReason("x".repeat(100_000));

        assertThat(incident.reason().orElseThrow()).hasSize(Incident.MAX_TEXT_CHARS + 1).endsWith("…");
    }

    @Test
    void nullOptionalsAreEmpty() {
        Incident incident = new Incident(Ref.random(), NOW, ErrorCode.TIMEOUT, "tools/call", null, null, null,
                List.of(), List.of(), null, null);

        assertThat(incident.arguments()).isEmpty();
        assertThat(incident.reason()).isEmpty();
    }

    @Test
    void withCallerKeepsEverythingElseAndTheJsonCarriesItBothWays() {
        Incident incident = refused().withReason("timed out").withCaller("alice", Optional.of("cursor"));

        assertThat(incident.subject()).contains("alice");
        assertThat(incident.clientId()).contains("cursor");
        assertThat(incident.withArguments("{}").subject()).contains("alice");
        assertThat(incident.reason()).contains("timed out");
        assertThat(IncidentJson.fromJson(IncidentJson.stored(incident))).isEqualTo(incident);
        assertThat(IncidentJson.summary(incident).path("subject").asString()).isEqualTo("alice");
    }

    @Test
    void aRecordWrittenBeforeCallersWereKeptReadsWithoutOne() {
        var old = IncidentJson.stored(refused());
        old.remove("subject");

        Incident read = IncidentJson.fromJson(old);

        assertThat(read.subject()).isEmpty();
        assertThat(read.clientId()).isEmpty();
        assertThat(IncidentJson.stored(refused()).has("subject")).isFalse();
    }
}
