package dev.warden.audit.definitions;

import dev.warden.core.json.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import tools.jackson.databind.JsonNode;

/** Definitions for the tests: captured from real servers, written for a test, or built inline. */
final class Fixtures {

    static final String[] OFFICIAL = {"server-everything", "server-filesystem", "server-memory",
        "server-sequential-thinking"};

    private Fixtures() {
    }

    static Definitions resource(String path) {
        try (InputStream in = Fixtures.class.getResourceAsStream("/definitions/" + path)) {
            if (in == null) {
                throw new IllegalArgumentException("no test resource " + path);
            }
            return Definitions.fromJson(Json.mapper().readTree(in));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Definitions official(String name) {
        return resource("official/" + name + ".json");
    }

    /** Definitions of a server named {@code server} listing the tools of {@code toolsJson} (a JSON array). */
    static Definitions tools(String server, String toolsJson) {
        JsonNode tools = Json.mapper().readTree(toolsJson);
        ObjectNodeBuilder b = new ObjectNodeBuilder();
        return Definitions.fromJson(b.with(server, tools));
    }

    private static final class ObjectNodeBuilder {
        JsonNode with(String server, JsonNode tools) {
            var root = Json.object();
            root.putObject("server").put("name", server);
            root.set("tools", tools);
            return root;
        }
    }
}
