package dev.warden.core.shape;

import dev.warden.core.error.Violation;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import tools.jackson.databind.JsonNode;

/** The captured samples under {@code src/test/resources/error-shapes} (see the README there). */
final class Samples {

    private Samples() {
    }

    static String text(String file) {
        try (InputStream in = Samples.class.getResourceAsStream("/error-shapes/" + file)) {
            if (in == null) {
                throw new IllegalArgumentException("no sample " + file);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static JsonNode json(String file) {
        return EmbeddedJson.decode(text(file)).orElseThrow();
    }

    static Extracted read(String file) {
        return ErrorShapes.ofDefaults().read(json(file)).orElseThrow();
    }

    static Violation v(String pointer, String message) {
        return new Violation(pointer, message);
    }
}
