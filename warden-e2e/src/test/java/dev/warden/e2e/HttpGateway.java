package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/** {@code warden gateway} over Streamable HTTP on a free port, with a configuration and data directory of its own. */
record HttpGateway(LinePeer peer, String url, Path dataDir) {

    /** Starts the gateway on {@code yaml} (which sets {@code http: { port: 0 }}) and waits until it serves. */
    static HttpGateway start(String yaml, int upstreams) throws Exception {
        return start(yaml, upstreams, java.util.Map.of());
    }

    /** {@link #start(String, int)} with {@code environment} added to the gateway process's own. */
    static HttpGateway start(String yaml, int upstreams, java.util.Map<String, String> environment) throws Exception {
        Path dataDir = Files.createTempDirectory("warden-gateway-e2e");
        Path config = dataDir.resolve("warden.yaml");
        Files.writeString(config, yaml);
        LinePeer peer = new LinePeer(List.of(Processes.LAUNCHER.toString(), "gateway", "--config", config.toString(),
                "--data-dir", dataDir.toString()), environment);
        String line = peer.nextLine(Duration.ofSeconds(60));
        assertThat(line).startsWith("warden gateway: serving " + upstreams + " upstream(s) at http://");
        // The endpoint, up to the replica's id when the line names one (with redis:).
        return new HttpGateway(peer, line.substring(line.indexOf("http://")).strip().split(" ")[0], dataDir);
    }

    /**
     * The gateway in front of server-everything over stdio alone, as upstream {@code everything};
     * {@code settings} are more of its keys, one per line ({@code closeIdleAfter: 1s}, say).
     */
    static HttpGateway inFrontOfServerEverything(String... settings) throws Exception {
        return inFrontOfServerEverything(java.util.Map.of(), settings);
    }

    /** {@link #inFrontOfServerEverything(String...)} with {@code environment} added to the gateway process's own. */
    static HttpGateway inFrontOfServerEverything(java.util.Map<String, String> environment, String... settings)
            throws Exception {
        StringBuilder yaml = new StringBuilder("""
                http: { port: 0 }
                upstreams:
                  everything:
                    command: [%s, %s, stdio]
                """.formatted(Processes.NODE, WardenClientWithServerEverythingTest.SERVER));
        for (String setting : settings) {
            yaml.append("    ").append(setting).append('\n');
        }
        return start(yaml.toString(), 1, environment);
    }

    void stop() throws InterruptedException {
        peer.destroy();
    }
}
