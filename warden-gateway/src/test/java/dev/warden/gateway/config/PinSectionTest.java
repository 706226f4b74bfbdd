package dev.warden.gateway.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.warden.core.json.Json;
import dev.warden.core.pin.DefinitionPins;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code pin: FILE} and {@code pinMode: block|warn} of an upstream in warden.yaml. */
class PinSectionTest {

    @TempDir
    Path dir;

    private GatewayConfig load(String yaml) throws Exception {
        Path file = dir.resolve("warden.yaml");
        Files.writeString(file, yaml);
        return GatewayConfig.load(file);
    }

    private DefinitionPins pinned() throws Exception {
        DefinitionPins pins = DefinitionPins.of(Map.of("tools", Json.mapper().readTree("[{\"name\":\"add\"}]")));
        pins.write(dir.resolve("notes.pins.json"));
        return pins;
    }

    @Test
    void aPinFileIsReadRelativeToTheConfigurationAndWarnsByDefault() throws Exception {
        DefinitionPins pins = pinned();
        Upstream u = load("upstreams: { notes: { command: x, pin: notes.pins.json } }").upstreams().get(0);
        assertThat(u.pin()).hasValueSatisfying(p -> {
            assertThat(p.pins()).isEqualTo(pins);
            assertThat(p.mode()).isEqualTo(Pin.Mode.WARN);
        });
    }

    @Test
    void pinModeBlockIsRead() throws Exception {
        pinned();
        assertThat(load("upstreams: { notes: { command: x, pin: notes.pins.json, pinMode: block } }").upstreams()
                .get(0).pin().orElseThrow().mode()).isEqualTo(Pin.Mode.BLOCK);
    }

    @Test
    void withoutPinThereIsNone() throws Exception {
        assertThat(load("upstreams: { notes: { command: x } }").upstreams().get(0).pin()).isEmpty();
    }

    @Test
    void anUnknownModeIsRefusedNamingItsKey() throws Exception {
        pinned();
        assertThatThrownBy(() -> load("upstreams: { notes: { command: x, pin: notes.pins.json, pinMode: strict } }"))
                .isInstanceOf(ConfigException.class).hasMessageStartingWith("upstreams.notes.pinMode:");
    }

    @Test
    void aModeWithoutAFileIsRefusedNamingItsKey() {
        assertThatThrownBy(() -> load("upstreams: { notes: { command: x, pinMode: block } }"))
                .isInstanceOf(ConfigException.class).hasMessageStartingWith("upstreams.notes.pinMode:");
    }

    @Test
    void aMissingPinFileStopsTheGatewayNamingTheKey() {
        assertThatThrownBy(() -> load("upstreams: { notes: { command: x, pin: nowhere.json } }"))
                .isInstanceOf(ConfigException.class).hasMessageStartingWith("upstreams.notes.pin:");
    }

    @Test
    void aMalformedPinFileIsRefusedNamingTheKey() throws Exception {
        Files.writeString(dir.resolve("bad.json"), "{\"version\": 9, \"definitions\": {}}");
        assertThatThrownBy(() -> load("upstreams: { notes: { command: x, pin: bad.json } }"))
                .isInstanceOf(ConfigException.class).hasMessageStartingWith("upstreams.notes.pin:");
    }
}
