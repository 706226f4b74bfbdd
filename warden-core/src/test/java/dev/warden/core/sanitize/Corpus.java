package dev.warden.core.sanitize;

import dev.warden.core.json.Json;
import dev.warden.core.sanitize.detection.Category;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;

/** The sanitizer corpus in src/test/resources/sanitizer-corpus (written by {@link CorpusGenerator}). */
final class Corpus {

    static final List<String> SENSITIVE_FILES = List.of("stack-trace", "path", "database", "secret", "topology",
            "injection");

    record Sample(String category, String text, List<String> sensitive) {
    }

    private Corpus() {
    }

    static List<Sample> load(String name) {
        try (InputStream in = Corpus.class.getResourceAsStream("/sanitizer-corpus/" + name + ".jsonl")) {
            if (in == null) {
                throw new IllegalStateException("missing corpus file " + name);
            }
            List<Sample> out = new ArrayList<>();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (line.isBlank()) {
                    continue;
                }
                JsonNode node = Json.mapper().readTree(line);
                List<String> sensitive = new ArrayList<>();
                node.get("sensitive").forEach(s -> {
                    if (!s.stringValue().isEmpty()) {
                        sensitive.add(s.stringValue());
                    }
                });
                out.add(new Sample(node.get("category").stringValue(), node.get("text").stringValue(), sensitive));
            }
            return out;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    static Category categoryOf(String name) {
        for (Category c : Category.values()) {
            if (c.label().equals(name)) {
                return c;
            }
        }
        throw new IllegalArgumentException(name);
    }
}
