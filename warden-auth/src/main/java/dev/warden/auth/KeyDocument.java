package dev.warden.auth;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import dev.warden.core.identity.ScopeToken;
import dev.warden.core.json.Json;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * An API keys document, YAML or JSON (JSON is YAML):
 * {@code keys: [ { name: ci-bot, sha256: <64 hex digits>, scopes: [mcp:tools] } ]}. Only digests
 * are stored, never keys.
 */
final class KeyDocument {

    /** One key: its name, the SHA-256 of its UTF-8 bytes, its scopes. */
    record StoredKey(String name, byte[] sha256, Set<String> scopes) {
    }

    private static final YAMLMapper YAML = YAMLMapper.builder().build();

    private KeyDocument() {
    }

    /** The keys in {@code text}; {@code where} names its origin in messages (a file, a variable). */
    static List<StoredKey> parse(String text, String where) {
        JsonNode root;
        try {
            root = YAML.readTree(text);
        } catch (JacksonException e) {
            throw new AuthConfigException(where + ": not YAML or JSON (line " + e.getLocation().getLineNr() + ")");
        }
        if (root == null || !root.isObject()) {
            throw new AuthConfigException(where + ": expected a mapping with keys: [ {name, sha256, scopes} ]");
        }
        for (String k : root.propertyNames()) {
            if (!k.equals("keys")) {
                throw new AuthConfigException(where + ": unknown key " + k + "; expected keys");
            }
        }
        JsonNode keys = root.get("keys");
        if (keys == null || !keys.isArray()) {
            throw new AuthConfigException(where + ": keys: expected a list of {name, sha256, scopes}");
        }
        List<StoredKey> out = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (int i = 0; i < keys.size(); i++) {
            String at = where + ": keys[" + i + "]";
            JsonNode k = keys.get(i);
            if (!k.isObject()) {
                throw new AuthConfigException(at + ": expected a mapping {name, sha256, scopes}");
            }
            for (String f : k.propertyNames()) {
                if (!Set.of("name", "sha256", "scopes").contains(f)) {
                    throw new AuthConfigException(at + ": unknown key " + f + "; expected one of name, scopes, sha256");
                }
            }
            JsonNode name = k.get("name");
            if (name == null || !name.isString() || name.stringValue().isBlank()) {
                throw new AuthConfigException(at + ".name: expected a name");
            }
            if (!names.add(name.stringValue())) {
                throw new AuthConfigException(at + ".name: another key has the same name");
            }
            out.add(new StoredKey(name.stringValue(), digest(k.get("sha256"), at + ".sha256"), scopes(k.get("scopes"), at + ".scopes")));
        }
        return List.copyOf(out);
    }

    static byte[] digest(JsonNode v, String at) {
        String hex = v != null && v.isString() ? v.stringValue() : "";
        if (hex.length() != 64 || !hex.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
            throw new AuthConfigException(at + ": expected 64 hex digits, the SHA-256 of the key (warden's key command prints it)");
        }
        return HexFormat.of().parseHex(hex);
    }

    /** A list of scopes (absent: none), each one RFC 6749 allows, the bad one named: keys files and auth configs alike. */
    static Set<String> scopes(JsonNode v, String at) {
        if (v == null || v.isNull()) {
            return Set.of();
        }
        if (!v.isArray() || !v.valueStream().allMatch(JsonNode::isString)) {
            throw new AuthConfigException(at + ": expected a list of names (scopes)");
        }
        Set<String> out = new LinkedHashSet<>();
        for (int i = 0; i < v.size(); i++) {
            out.add(scopeToken(v.get(i).stringValue(), at + "[" + i + "]"));
        }
        return out;
    }

    /** {@code scope}, if RFC 6749's grammar allows it; else an error naming it. */
    static String scopeToken(String scope, String at) {
        if (!ScopeToken.valid(scope)) {
            throw new AuthConfigException(at + ": " + Json.write(scope) + " is not a scope (RFC 6749 section 3.3: "
                    + "printable ASCII without spaces, quotes or backslashes)");
        }
        return scope;
    }

    /**
     * One key's entry for the list under {@code keys:}, serialized (a JSON mapping, which YAML
     * reads as it is), never pasted together: a scope holding {@code ,} or {@code ]} stays one
     * scope. Checked by reading it back, as the gateway will.
     */
    static String entry(String name, String sha256Hex, List<String> scopes) {
        ObjectNode entry = Json.object();
        entry.put("name", name);
        entry.put("sha256", sha256Hex);
        ArrayNode list = entry.putArray("scopes");
        scopes.forEach(s -> list.add(scopeToken(s, "scope")));
        String line = "- " + Json.write(entry);
        StoredKey back = parse("keys:\n" + line + "\n", "the new entry").get(0);
        if (!back.name().equals(name) || !List.copyOf(back.scopes()).equals(List.copyOf(new LinkedHashSet<>(scopes)))) {
            throw new IllegalStateException("the keys-file entry does not read back as written");
        }
        return line;
    }
}
