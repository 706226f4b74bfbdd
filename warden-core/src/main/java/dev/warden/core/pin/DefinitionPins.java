package dev.warden.core.pin;

import dev.warden.core.json.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The SHA-256 of every definition a server lists, by a stable key: its kind and its name
 * ({@code tool:read_file}, {@code prompt:summarize}, {@code resource:file:///a.txt},
 * {@code resourceTemplate:file:///{path}}). A definition is hashed as canonical JSON (object keys
 * sorted, no whitespace), so the order a server writes its fields in does not count as a change.
 *
 * @param hashes 64 lower-case hex digits by key, in key order
 */
public record DefinitionPins(Map<String, String> hashes) {

    /** The version of the file {@link #write} writes; {@link #read} refuses any other. */
    public static final int VERSION = 1;

    /** The list results' arrays that hold definitions, with the kind each key starts with. */
    public static final Map<String, String> KINDS = kinds();

    public DefinitionPins {
        Objects.requireNonNull(hashes, "hashes");
        hashes.forEach((key, hash) -> {
            if (key == null || key.indexOf(':') <= 0) {
                throw new IllegalArgumentException("a pin's key is <kind>:<name>, got " + key);
            }
            if (hash == null || !isHash(hash)) {
                throw new IllegalArgumentException("the pin of " + key + " is not a SHA-256 in hex");
            }
        });
        hashes = java.util.Collections.unmodifiableMap(new TreeMap<>(hashes));
    }

    private static Map<String, String> kinds() {
        Map<String, String> kinds = new LinkedHashMap<>();
        kinds.put("tools", "tool");
        kinds.put("prompts", "prompt");
        kinds.put("resources", "resource");
        kinds.put("resourceTemplates", "resourceTemplate");
        return java.util.Collections.unmodifiableMap(kinds);
    }

    /**
     * The pins of the definitions in {@code lists}: each value the array of a list result
     * ({@code tools/list}'s {@code tools}, …) by its field name, one of {@link #KINDS}. A name
     * listed twice is pinned as it was listed first (a duplicate is the auditor's finding, not a pin).
     */
    public static DefinitionPins of(Map<String, ? extends JsonNode> lists) {
        Map<String, String> hashes = new TreeMap<>();
        lists.forEach((field, items) -> {
            kindOf(field);
            for (JsonNode item : items) {
                hashes.putIfAbsent(keyOf(field, item), hash(item));
            }
        });
        return new DefinitionPins(hashes);
    }

    /** The key of one item of the list {@code field}: {@code tool:<name>}, {@code resource:<uri>}, …. */
    public static String keyOf(String field, JsonNode item) {
        String id = switch (field) {
            case "resources" -> item.path("uri").asString("");
            case "resourceTemplates" -> item.path("uriTemplate").asString("");
            default -> item.path("name").asString("");
        };
        return kindOf(field) + ":" + id;
    }

    private static String kindOf(String field) {
        String kind = KINDS.get(field);
        if (kind == null) {
            throw new IllegalArgumentException("definitions are listed in " + KINDS.keySet() + ", not in " + field);
        }
        return kind;
    }

    /** The SHA-256, in hex, of {@code definition}'s canonical JSON. */
    public static String hash(JsonNode definition) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256")
                    .digest(Json.write(canonical(definition)).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError("every JDK has SHA-256", e);
        }
    }

    /** {@code node} with every object's keys sorted: the same definition always writes the same bytes. */
    static JsonNode canonical(JsonNode node) {
        if (node.isObject()) {
            ObjectNode sorted = Json.object();
            for (String name : new TreeSet<>(node.propertyNames())) {
                sorted.set(name, canonical(node.get(name)));
            }
            return sorted;
        }
        if (node.isArray()) {
            var array = Json.mapper().createArrayNode();
            node.forEach(item -> array.add(canonical(item)));
            return array;
        }
        return node;
    }

    /** What changed from {@code this} (pinned) to {@code now}, by key. */
    public Changes changesTo(DefinitionPins now) {
        List<String> changed = new ArrayList<>();
        List<String> added = new ArrayList<>();
        List<String> removed = new ArrayList<>();
        now.hashes.forEach((key, hash) -> {
            String pinned = hashes.get(key);
            if (pinned == null) {
                added.add(key);
            } else if (!pinned.equals(hash)) {
                changed.add(key);
            }
        });
        hashes.keySet().stream().filter(k -> !now.hashes.containsKey(k)).forEach(removed::add);
        return new Changes(changed, added, removed);
    }

    /**
     * Keys whose definitions differ between two pins.
     *
     * @param changed pinned and listed, with another hash
     * @param added listed, never pinned
     * @param removed pinned, no longer listed
     */
    public record Changes(List<String> changed, List<String> added, List<String> removed) {
        public Changes {
            changed = List.copyOf(changed);
            added = List.copyOf(added);
            removed = List.copyOf(removed);
        }

        public boolean none() {
            return changed.isEmpty() && added.isEmpty() && removed.isEmpty();
        }
    }

    /** Writes {@code {"version": 1, "definitions": {key: hash, …}}} to {@code file}. */
    public void write(Path file) throws IOException {
        ObjectNode root = Json.object();
        root.put("version", VERSION);
        ObjectNode definitions = root.putObject("definitions");
        hashes.forEach(definitions::put);
        Files.writeString(file, Json.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n",
                StandardCharsets.UTF_8);
    }

    /**
     * Reads a file {@link #write} wrote; an {@link IllegalArgumentException} says what in it is
     * wrong (its version, a key, a hash), an {@link IOException} that it could not be read.
     */
    public static DefinitionPins read(Path file) throws IOException {
        JsonNode root;
        try {
            root = Json.mapper().readTree(Files.readString(file, StandardCharsets.UTF_8));
        } catch (JacksonException e) {
            throw new IllegalArgumentException("pin file " + file + " is not JSON");
        }
        if (root == null || !root.path("version").isInt() || root.path("version").intValue() != VERSION) {
            throw new IllegalArgumentException("pin file " + file + " must have \"version\": " + VERSION);
        }
        JsonNode definitions = root.path("definitions");
        if (!definitions.isObject()) {
            throw new IllegalArgumentException("pin file " + file + " must have an object \"definitions\"");
        }
        Map<String, String> hashes = new TreeMap<>();
        for (String key : definitions.propertyNames()) {
            JsonNode hash = definitions.get(key);
            if (!hash.isString()) {
                throw new IllegalArgumentException("pin file " + file + ": the pin of " + key + " must be a string");
            }
            hashes.put(key, hash.stringValue());
        }
        return new DefinitionPins(hashes);
    }

    /** The keys pinned. */
    public Set<String> keys() {
        return hashes.keySet();
    }

    private static boolean isHash(String s) {
        if (s.length() != 64) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
                return false;
            }
        }
        return true;
    }
}
