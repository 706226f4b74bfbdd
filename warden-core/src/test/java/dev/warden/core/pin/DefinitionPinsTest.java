package dev.warden.core.pin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.warden.core.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

class DefinitionPinsTest {

    @TempDir
    Path dir;

    static JsonNode json(String text) {
        return Json.mapper().readTree(text);
    }

    @Test
    void theOrderOfADefinitionsKeysDoesNotChangeItsHash() {
        assertThat(DefinitionPins.hash(json("{\"name\":\"a\",\"inputSchema\":{\"type\":\"object\",\"required\":[]}}")))
                .isEqualTo(DefinitionPins.hash(json("{\"inputSchema\":{\"required\":[],\"type\":\"object\"},\"name\":\"a\"}")));
    }

    @Test
    void eachDefinitionIsKeyedByItsKindAndName() {
        DefinitionPins pins = DefinitionPins.of(Map.of(
                "tools", json("[{\"name\":\"read_file\"}]"),
                "prompts", json("[{\"name\":\"summarize\"}]"),
                "resources", json("[{\"uri\":\"file:///a.txt\",\"name\":\"a\"}]"),
                "resourceTemplates", json("[{\"uriTemplate\":\"file:///{path}\",\"name\":\"f\"}]")));
        assertThat(pins.keys()).containsExactly("prompt:summarize", "resource:file:///a.txt",
                "resourceTemplate:file:///{path}", "tool:read_file");
    }

    @Test
    void aChangedAnAddedAndARemovedDefinitionAreToldApart() {
        DefinitionPins pinned = DefinitionPins.of(Map.of("tools",
                json("[{\"name\":\"a\",\"description\":\"x\"},{\"name\":\"b\"},{\"name\":\"gone\"}]")));
        DefinitionPins now = DefinitionPins.of(Map.of("tools",
                json("[{\"name\":\"a\",\"description\":\"y\"},{\"name\":\"b\"},{\"name\":\"new\"}]")));
        DefinitionPins.Changes changes = pinned.changesTo(now);
        assertThat(changes.changed()).containsExactly("tool:a");
        assertThat(changes.added()).containsExactly("tool:new");
        assertThat(changes.removed()).containsExactly("tool:gone");
    }

    @Test
    void pinsWrittenToAFileReadBackTheSame() throws Exception {
        DefinitionPins pins = DefinitionPins.of(Map.of("tools", json("[{\"name\":\"a\"},{\"name\":\"b\"}]")));
        Path file = dir.resolve("pins.json");
        pins.write(file);
        assertThat(Files.readString(file)).contains("\"version\" : 1");
        assertThat(DefinitionPins.read(file)).isEqualTo(pins);
    }

    @Test
    void aFileOfAnotherVersionIsRefusedNamingTheVersion() throws Exception {
        Path file = dir.resolve("pins.json");
        Files.writeString(file, "{\"version\":2,\"definitions\":{}}");
        assertThatThrownBy(() -> DefinitionPins.read(file)).hasMessageContaining("\"version\": 1");
    }

    @Test
    void aMalformedHashIsRefusedNamingItsKey() throws Exception {
        Path file = dir.resolve("pins.json");
        Files.writeString(file, "{\"version\":1,\"definitions\":{\"tool:a\":\"not-a-hash\"}}");
        assertThatThrownBy(() -> DefinitionPins.read(file)).hasMessageContaining("tool:a");
    }

    @Test
    void anUnknownListIsRefusedNamingIt() {
        assertThatThrownBy(() -> DefinitionPins.of(Map.of("widgets", json("[]")))).hasMessageContaining("widgets");
    }
}
