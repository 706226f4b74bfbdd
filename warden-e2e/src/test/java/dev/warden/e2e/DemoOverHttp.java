package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * {@code warden demo --http 0 --auth FILE}: the demo server, built with Warden's server SDK, over
 * Streamable HTTP as an OAuth resource server of its own ({@code authYaml}: the keys of
 * warden.yaml's {@code auth:} section), with a data directory of its own for its incidents.
 */
record DemoOverHttp(LinePeer peer, String url, Path dataDir) {

    static final String PREFIX = "warden demo: serving the demo at ";

    static DemoOverHttp start(String authYaml) throws Exception {
        Path dataDir = Files.createTempDirectory("warden-demo-e2e");
        Path auth = dataDir.resolve("auth.yaml");
        Files.writeString(auth, authYaml);
        return start(dataDir, List.of("--auth", auth.toString()));
    }

    /** The demo over HTTP with no authentication (loopback only). */
    static DemoOverHttp open() throws Exception {
        return start(Files.createTempDirectory("warden-demo-e2e"), List.of());
    }

    private static DemoOverHttp start(Path dataDir, List<String> auth) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of(Processes.LAUNCHER.toString(), "demo", "--http", "0"));
        command.addAll(auth);
        command.addAll(List.of("--data-dir", dataDir.toString()));
        LinePeer peer = new LinePeer(command);
        String line = peer.nextLine(Duration.ofSeconds(60));
        assertThat(line).as("stderr: %s", Files.readString(peer.stderr)).startsWith(PREFIX);
        return new DemoOverHttp(peer, line.substring(PREFIX.length()).strip(), dataDir);
    }

    void stop() throws InterruptedException {
        peer.destroy();
    }
}
