package dev.warden.audit.internal;

import dev.warden.audit.canary.Canaries;
import dev.warden.audit.canary.ValueShapes;
import dev.warden.core.json.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * A value the server itself says is valid, for the baseline call: so a tool that answers only for
 * an id it knows is called with one, and what it returns on success is read. In this order: the
 * first of {@code enum}, {@code const}, {@code default}, the first of {@code examples} (or an
 * OpenAPI {@code example}), then a list the property's description gives ("Available IDs: a, b",
 * "one of …", "e.g. …"), then one the tool's description gives for this property (its label names
 * the property, or the tool has this one property). Always the first item: the same call every run.
 * Never from prose for a command, SQL, URL or path, never a value {@link BaselineGuard} refuses:
 * the baseline is sent without {@code --allow-destructive}.
 * A value a string schema's length or a number's type refuses is not taken. Hand-written scanning,
 * bounded: the first {@link #MAX_SCAN} characters of a description, at most {@link #MAX_ITEMS}
 * items of a list, each at most {@link #MAX_ITEM} characters.
 */
public final class BaselineValues {

    private static final int MAX_SCAN = 4096;
    private static final int MAX_ITEMS = 8;
    private static final int MAX_ITEM = 64;
    /** Cues after which a list follows directly. */
    private static final String[] CUES = {"e.g.", "for example", "such as", "one of", "either"};
    /** Words that make a label ending in ':' the head of a list ("Available IDs:", "Valid values:"). */
    private static final List<String> LABEL_WORDS = List.of("available", "valid", "allowed", "supported",
            "possible", "accepted", "known", "options", "values", "choices", "examples", "example", "ids");

    private BaselineValues() {
    }

    /**
     * The value for {@code property} (may be empty: an item of an array, a nested object's member
     * without context) of {@code schema}; {@code toolDescription} the tool's description, or empty.
     */
    public static Optional<JsonNode> of(JsonNode schema, String property, String toolDescription, boolean onlyProperty) {
        return all(schema, property, toolDescription, onlyProperty).stream().findFirst();
    }

    /**
     * Every value {@link #of} could choose from, in the order it prefers them, at most
     * {@value #MAX_ITEMS}: the first source that gives any (an enum, a const or default, the
     * examples, a list in the property's description, then in the tool's).
     */
    public static List<JsonNode> all(JsonNode schema, String property, String toolDescription, boolean onlyProperty) {
        // The server's own enum, const or default: what it accepts, or applies anyway when the
        // property is left out, so sending it does nothing a call without it would not.
        JsonNode en = schema.path("enum");
        if (en.isArray() && !en.isEmpty()) {
            return copies(en);
        }
        for (String field : new String[] {"const", "default"}) {
            if (schema.has(field)) {
                return List.of(schema.get(field).deepCopy());
            }
        }
        List<String> bases = Canaries.bases(toolDescription);
        return examples(schema, property, toolDescription, onlyProperty).stream()
                .filter(v -> BaselineGuard.harmless(v, bases)).toList();
    }

    /**
     * Examples, then lists in descriptions, before {@link BaselineGuard}: a description's list only
     * for a property that is no command, SQL, URL or path ({@link ValueShapes#risky}), and a list
     * after a cue ("e.g.", "such as") only of single id-like tokens: an example shows harm as
     * readily as a harmless value.
     */
    private static List<JsonNode> examples(JsonNode schema, String property, String toolDescription,
                                           boolean onlyProperty) {
        JsonNode examples = schema.path("examples");
        if (examples.isArray() && !examples.isEmpty()) {
            return copies(examples);
        }
        if (schema.has("example")) {
            return List.of(schema.get("example").deepCopy());
        }
        String type = ProbeGenerator.type(schema);
        if (!type.equals("string") && !type.equals("integer") && !type.equals("number")
                || ValueShapes.risky(property, schema)) {
            return List.of();
        }
        for (Listed list : lists(schema.path("description").asString(""))) {
            List<JsonNode> v = fitting(list.values(), schema, type);
            if (!v.isEmpty()) {
                return v;
            }
        }
        if (!property.isEmpty() && !toolDescription.isEmpty()) {
            for (Listed list : lists(toolDescription)) {
                if (onlyProperty || names(list.label(), property)) {
                    List<JsonNode> v = fitting(list.values(), schema, type);
                    if (!v.isEmpty()) {
                        return v;
                    }
                }
            }
        }
        return List.of();
    }

    private static List<JsonNode> copies(JsonNode array) {
        List<JsonNode> out = new ArrayList<>();
        for (int i = 0; i < array.size() && out.size() < MAX_ITEMS; i++) {
            out.add(array.get(i).deepCopy());
        }
        return out;
    }

    /** A list in a text, with the words before it that say what it lists ("Available IDs"). */
    record Listed(String label, List<String> items, boolean cued) {
        /** The items a baseline may take: after a cue, only the single id-like tokens. */
        List<String> values() {
            return cued ? items.stream().filter(BaselineValues::idLike).toList() : items;
        }
    }

    /** One token of letters, digits and {@code - _ . : @ +}: an id, a code, a symbol, a date. */
    static boolean idLike(String item) {
        if (item.isEmpty()) {
            return false;
        }
        for (int i = 0; i < item.length(); i++) {
            char c = item.charAt(i);
            if (!Character.isLetterOrDigit(c) && "-_.:@+".indexOf(c) < 0) {
                return false;
            }
        }
        return true;
    }

    /** Every list {@code text} gives after a cue or a label, in order. */
    static List<Listed> lists(String text) {
        String t = text.length() > MAX_SCAN ? text.substring(0, MAX_SCAN) : text;
        String lower = t.toLowerCase(Locale.ROOT);
        List<Listed> out = new ArrayList<>();
        int i = 0;
        while (i < t.length() && out.size() < 8) {
            int next = -1;
            int least = 1;
            String label = "";
            boolean cued = false;
            char c = t.charAt(i);
            if (c == ':') {
                String head = labelBefore(lower, i);
                if (isListLabel(head)) {
                    next = i + 1;
                    label = head;
                }
            } else if (i == 0 || !Character.isLetter(t.charAt(i - 1))) {
                for (String cue : CUES) {
                    if (lower.startsWith(cue, i)) {
                        next = i + cue.length();
                        label = labelBefore(lower, i);
                        cued = true;
                        // "one of the documents" is prose; "one of a, b" a list
                        least = cue.startsWith("e.g") || cue.equals("for example") ? 1 : 2;
                        break;
                    }
                }
            }
            if (next < 0) {
                i++;
                continue;
            }
            int[] end = {next};
            List<String> items = items(t, next, end);
            if (items.size() >= least) {
                out.add(new Listed(label, items, cued));
            }
            i = Math.max(end[0], i + 1);
        }
        return out;
    }

    /** The few words before {@code at}, back to the start of the sentence or clause (at most 48 characters). */
    private static String labelBefore(String lower, int at) {
        int s = at;
        while (s > 0 && at - s < 48) {
            char c = lower.charAt(s - 1);
            if (c == '.' || c == ';' || c == '\n' || c == ':' || c == '(' || c == ',') {
                break;
            }
            s--;
        }
        return lower.substring(s, at).strip();
    }

    private static boolean isListLabel(String head) {
        for (String word : ToolNames.words(head)) {
            if (LABEL_WORDS.contains(word)) {
                return true;
            }
        }
        return false;
    }

    /** Whether the label names {@code property}: one of the property's words, or its plural, is in it. */
    private static boolean names(String label, String property) {
        List<String> labelWords = ToolNames.words(label);
        for (String word : ToolNames.words(property)) {
            if (labelWords.contains(word) || labelWords.contains(word + "s")) {
                return true;
            }
        }
        return false;
    }

    /**
     * The items of a list starting at {@code from}: separated by commas, bars or "or",
     * ending at a sentence's end, a newline, a semicolon or a closing parenthesis.
     */
    private static List<String> items(String t, int from, int[] end) {
        List<String> items = new ArrayList<>();
        StringBuilder item = new StringBuilder();
        char quote = 0;
        int i = from;
        for (; i < t.length() && items.size() < MAX_ITEMS; i++) {
            char c = t.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else {
                    item.append(c);
                }
                continue;
            }
            boolean sentenceEnd = c == '.' && (i + 1 == t.length() || Character.isWhitespace(t.charAt(i + 1)));
            if (c == '\n' || c == ';' || c == ')' || sentenceEnd) {
                break;
            }
            if (c == '"' || c == '\'' || c == '`') {
                quote = c;
            } else if (c == ',' || c == '|') {
                add(item, items);
            } else if (item.length() <= MAX_ITEM * 2) {
                item.append(c);
            }
        }
        add(item, items);
        end[0] = i;
        return items;
    }

    private static void add(StringBuilder item, List<String> items) {
        String s = item.toString().strip();
        item.setLength(0);
        for (String lead : new String[] {"and ", "or ", ":"}) {
            if (s.startsWith(lead)) {
                s = s.substring(lead.length()).strip();
            }
        }
        int paren = s.indexOf(" (");
        if (paren > 0) {
            s = s.substring(0, paren);
        }
        int or = s.indexOf(" or ");
        if (or > 0) { // "a or b": the first
            s = s.substring(0, or).strip();
        }
        // A value, not a clause: at most three words ("New York"), no parenthesis.
        if (!s.isEmpty() && s.length() <= MAX_ITEM && !s.contains("(") && s.split(" ").length <= 3) {
            items.add(s);
        }
    }

    /** The items the schema accepts, as the type the schema asks for, in their order. */
    private static List<JsonNode> fitting(List<String> items, JsonNode schema, String type) {
        List<JsonNode> out = new ArrayList<>();
        for (String item : items) {
            if (type.equals("string")) {
                int min = schema.path("minLength").asInt(0);
                int max = schema.path("maxLength").asInt(Integer.MAX_VALUE);
                if (item.length() >= min && item.length() <= max) {
                    out.add(Json.tree(item));
                }
            } else {
                try {
                    out.add(type.equals("integer") ? Json.tree(Long.parseLong(item)) : Json.tree(Double.parseDouble(item)));
                } catch (NumberFormatException e) {
                    // not a number: the next item may be
                }
            }
        }
        return out;
    }
}
