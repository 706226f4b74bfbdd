package dev.warden.audit.internal;

import dev.warden.client.http.Loopback;
import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.audit.canary.Canary;
import dev.warden.core.json.Json;
import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * A URL canary is planted only where the audit's loopback listener can see the fetch: a remote
 * server asked to fetch 127.0.0.1 fetches its own loopback, and nothing could ever confirm it.
 */
class UrlCanaryPlantingTest {

    private static final JsonNode FETCH = Json.mapper().readTree("""
            {"name":"fetch","inputSchema":{"type":"object","properties":{"url":{"type":"string"}},"required":["url"]}}""");

    private static List<Probe> urlCanaries(boolean local) {
        return new ProbeGenerator("wdnprobe-0a1b2c3d", token -> "http://127.0.0.1:9/" + token, local).forTool(FETCH)
                .stream().filter(p -> p.canary().filter(c -> c instanceof Canary.Url).isPresent()).toList();
    }

    @Test
    void a_server_on_this_machine_gets_the_url_canary_and_a_remote_one_does_not() {
        assertThat(urlCanaries(true)).hasSize(1);
        assertThat(urlCanaries(false)).isEmpty();
    }

    @Test
    void loopback_is_localhost_or_a_loopback_literal_never_a_name_looked_up() {
        assertThat(Loopback.of(URI.create("http://127.0.0.1:8080/mcp"))).isTrue();
        assertThat(Loopback.of(URI.create("http://localhost/mcp"))).isTrue();
        assertThat(Loopback.of(URI.create("http://[::1]:3000/mcp"))).isTrue();
        assertThat(Loopback.of(URI.create("https://mcp.example.com/mcp"))).isFalse();
        assertThat(Loopback.of(URI.create("http://10.0.0.5/mcp"))).isFalse();
    }
}
