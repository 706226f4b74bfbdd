package dev.warden.server;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Matches URIs against a level-1 URI template ({@code scheme://{a}/{b}}). A variable matches one or
 * more characters up to the next literal and never a {@code /}. Hand-written, linear, no regex.
 */
public final class UriTemplate {

    private final List<String> literals;
    private final List<String> names;

    private UriTemplate(List<String> literals, List<String> names) {
        this.literals = literals;
        this.names = names;
    }

    public static UriTemplate parse(String template) {
        List<String> literals = new ArrayList<>();
        List<String> names = new ArrayList<>();
        StringBuilder literal = new StringBuilder();
        int i = 0;
        while (i < template.length()) {
            char c = template.charAt(i);
            if (c == '{') {
                int close = template.indexOf('}', i);
                if (close < 0) {
                    throw new IllegalArgumentException("unclosed '{' in URI template " + template);
                }
                String name = template.substring(i + 1, close);
                if (name.isEmpty() || !name.chars().allMatch(ch -> Character.isLetterOrDigit(ch) || ch == '_')) {
                    throw new IllegalArgumentException("URI template " + template
                            + " uses an unsupported expression {" + name + "}");
                }
                if (!names.isEmpty() && literal.isEmpty()) {
                    throw new IllegalArgumentException("URI template " + template + " has adjacent variables");
                }
                literals.add(literal.toString());
                literal.setLength(0);
                names.add(name);
                i = close + 1;
            } else {
                literal.append(c);
                i++;
            }
        }
        literals.add(literal.toString());
        return new UriTemplate(List.copyOf(literals), List.copyOf(names));
    }

    public Optional<Map<String, String>> match(String uri) {
        if (!uri.startsWith(literals.get(0))) {
            return Optional.empty();
        }
        int pos = literals.get(0).length();
        Map<String, String> values = new LinkedHashMap<>();
        for (int v = 0; v < names.size(); v++) {
            String next = literals.get(v + 1);
            int end;
            if (next.isEmpty()) {
                end = uri.length();
            } else {
                end = uri.indexOf(next, pos);
                if (end < 0) {
                    return Optional.empty();
                }
            }
            String value = uri.substring(pos, end);
            if (value.isEmpty() || value.indexOf('/') >= 0) {
                return Optional.empty();
            }
            values.put(names.get(v), value);
            pos = end + next.length();
        }
        return pos == uri.length() ? Optional.of(values) : Optional.empty();
    }
}
