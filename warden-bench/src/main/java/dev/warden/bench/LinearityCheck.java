package dev.warden.bench;

import dev.warden.core.json.Json;
import dev.warden.core.sanitize.Policy;
import dev.warden.core.sanitize.Sanitizer;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.IntFunction;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Hostile inputs against the sanitizer: each pattern repeated to 64 KiB and to 1 MiB, timed after
 * warm-up. A ratio near 16 is linear; a quadratic scan shows as a ratio in the hundreds. Not JMH:
 * a quick screen over many patterns, whose slowest cases the JMH benchmark then measures properly.
 * Then hostile JSON values, built to about 64 KiB and 1 MiB serialized, through
 * {@link Sanitizer#sanitizeJson}.
 */
public final class LinearityCheck {

    private static final String[] PATTERNS = {"::", "a.", "1.", "-----BEGIN ", "x://a:b", "SELECT a ", "select a from ",
            "at ", "/a", "ignore ", "eyJa.", "password= ", "\"password\": \"", "Traceback (most recent call last):\n",
            "#0 ", "environ({", "localhost:", "fe80:", "[", "<", "ORA-00001 ", "does not exist ",
            "relation \"x\" does not exist\n", "C:\\", "\\\\", "~/", "file:/", "Key (", "DETAIL: x\n", "ERROR 1062 ",
            "\u001b[", "\uD800", "Authorization: '", "AKIA", "10.0.0.1:", "x.internal.",
            // the shared word index: joined tokens, leading dashes, separators, non-Latin-1 text
            "-", "a-", "-a", "_a ", "a=", "k: ", "BEGIN ", "\u20ac?", "\uD83D\uDE00a",
            // database messages read by shape: prefixes, slots, added lines
            "near \"", "connection to server at \"", "ERROR:  column \"a\" does not exist\nLINE 1: ", "(1054, \"",
            "SQLSTATE[42S22]: ", "Msg 208, Level 16, State 1, Line 1\n", "permission denied for ", "Key (a)=(",
            "Failing row contains (", "division by zero ", "Duplicate entry '", "psycopg2.errors.X: ", "HINT:  \n",
            // names of one installation (snake_case with a digit), colons an attacker repeats
            "a1_", "a_1 ", "_", "::::", ": :", "On instance['a']["};

    private LinearityCheck() {
    }

    public static void main(String[] args) {
        Sanitizer sanitizer = Sanitizer.builder().maxOutputChars(1 << 23).build();
        System.out.println("| pattern | 64 KiB (ms) | 1 MiB (ms) | ratio (16 = linear) |");
        System.out.println("|---|---:|---:|---:|");
        for (String pattern : PATTERNS) {
            double[] ms = new double[2];
            int[] sizes = {1 << 16, 1 << 20};
            for (int k = 0; k < 2; k++) {
                String text = pattern.repeat(sizes[k] / pattern.length());
                for (int w = 0; w < 3; w++) {
                    sanitizer.sanitize(text, Policy.REDACT);
                }
                long start = System.nanoTime();
                for (int r = 0; r < 3; r++) {
                    sanitizer.sanitize(text, Policy.REDACT);
                }
                ms[k] = (System.nanoTime() - start) / 3e6;
            }
            String shown = pattern.replace("\n", "\\n").replace("\u001b", "ESC").replace("\uD800", "\\uD800")
                    .replace("\u20ac", "\\u20ac").replace("\uD83D\uDE00", "\\uD83D\\uDE00").replace("|", "\\|");
            System.out.printf("| `%s` | %.1f | %.1f | %.1f |%n", shown, ms[0], ms[1], ms[1] / ms[0]);
        }
        System.out.println();
        System.out.println("| JSON value | 64 KiB (ms) | 1 MiB (ms) | ratio (16 = linear) |");
        System.out.println("|---|---:|---:|---:|");
        for (Map.Entry<String, IntFunction<JsonNode>> pattern : jsonPatterns().entrySet()) {
            double[] ms = new double[2];
            int[] sizes = {1 << 16, 1 << 20};
            for (int k = 0; k < 2; k++) {
                JsonNode value = pattern.getValue().apply(sizes[k]);
                for (int w = 0; w < 3; w++) {
                    sanitizer.sanitizeJson(value, Policy.REDACT);
                }
                long start = System.nanoTime();
                for (int r = 0; r < 3; r++) {
                    sanitizer.sanitizeJson(value, Policy.REDACT);
                }
                ms[k] = (System.nanoTime() - start) / 3e6;
            }
            System.out.printf("| %s | %.1f | %.1f | %.1f |%n", pattern.getKey(), ms[0], ms[1], ms[1] / ms[0]);
        }
    }

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    /** Hostile JSON values by name, each built to about the size given (serialized characters). */
    private static Map<String, IntFunction<JsonNode>> jsonPatterns() {
        Map<String, IntFunction<JsonNode>> p = new LinkedHashMap<>();
        p.put("nesting 250 deep, repeated", size -> repeated(size, i -> deep(250, NODES.stringNode("10.0.0.1"))));
        p.put("one string of backslashes", size -> NODES.arrayNode().add("\\".repeat(size / 4)));
        p.put("one string of \\u0000", size -> NODES.arrayNode().add("\u0000".repeat(size / 6)));
        p.put("one string of quotes", size -> NODES.arrayNode().add("\"".repeat(size / 2)));
        p.put("JSON in JSON in JSON in JSON, one big string", size -> {
            JsonNode node = NODES.objectNode().put("detail", "at a.b.C.d(C.java:1)\n".repeat(size / 40));
            for (int l = 0; l < 4; l++) {
                node = NODES.objectNode().put("text", Json.write(node));
            }
            return node;
        });
        p.put("JSON in strings, many small", size -> repeated(size, i -> NODES.stringNode(
                Json.write(NODES.stringNode(Json.write(NODES.objectNode().put("p", "/srv/x/" + i)))))));
        p.put("strings that look like JSON and are not", size -> repeated(size,
                i -> NODES.stringNode("{\"a\":\"" + "x".repeat(200) + "\",}")));
        p.put("text then braces that are not JSON", size -> NODES.arrayNode()
                .add("x " + "{\"a\":\"".repeat(size / 10) + "}"));
        p.put("array of short distinct strings", size -> {
            ArrayNode a = NODES.arrayNode();
            for (int i = 0; i < size / 9; i++) {
                a.add(Integer.toString(i, 36));
            }
            return a;
        });
        p.put("wide object, 1 key per 40 chars", size -> {
            ObjectNode o = NODES.objectNode();
            for (int i = 0; i < size / 40; i++) {
                o.put("field_" + i, "value number " + i + " of it");
            }
            return o;
        });
        p.put("wide object, every key renamed alike", size -> {
            ObjectNode o = NODES.objectNode();
            for (int i = 0; i < size / 24; i++) {
                o.put("/srv/app/data/" + i, i);
            }
            return o;
        });
        p.put("secret-named members", size -> {
            ObjectNode o = NODES.objectNode();
            for (int i = 0; i < size / 30; i++) {
                o.put("api_key_" + i + "_token", "s3cr3t-" + i);
            }
            return o;
        });
        p.put("one long name over many findings", size -> {
            ObjectNode o = NODES.objectNode();
            ArrayNode items = o.putArray("k".repeat(size / 2));
            for (int i = 0; i < size / 24; i++) {
                items.add("10.0.0." + (i % 250));
            }
            return o;
        });
        return p;
    }

    private static JsonNode repeated(int size, IntFunction<JsonNode> item) {
        ArrayNode array = NODES.arrayNode();
        int length = 2;
        for (int i = 0; length < size; i++) {
            JsonNode next = item.apply(i);
            array.add(next);
            length += Json.write(next).length() + 1;
        }
        return array;
    }

    private static JsonNode deep(int depth, JsonNode leaf) {
        JsonNode node = leaf;
        for (int d = 0; d < depth; d++) {
            node = d % 2 == 0 ? NODES.arrayNode().add(node) : NODES.objectNode().set("k", node);
        }
        return node;
    }
}
