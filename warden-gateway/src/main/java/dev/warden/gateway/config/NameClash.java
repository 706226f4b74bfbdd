package dev.warden.gateway.config;

import java.util.List;
import java.util.Optional;
import java.util.function.IntFunction;

/**
 * Upstreams {@code first} and {@code second} (indexes in the list given, and their names) could
 * claim one prefixed name: {@code a + separator} begins {@code b + separator} or the reverse
 * ({@code h} and {@code h_}). Refused when a configuration is read or a gateway is built; here,
 * beside the configuration, so that both can ask without the reader depending on the gateway's
 * internals.
 */
public record NameClash(int first, int second, String firstName, String secondName, String separator) {

    /**
     * The first two upstream names (in order) whose prefixed names could be the same string, the
     * same name twice included.
     */
    public static Optional<NameClash> first(List<String> upstreams, String separator) {
        for (int i = 0; i < upstreams.size(); i++) {
            for (int j = i + 1; j < upstreams.size(); j++) {
                String a = upstreams.get(i) + separator;
                String b = upstreams.get(j) + separator;
                if (a.startsWith(b) || b.startsWith(a)) {
                    return Optional.of(new NameClash(i, j, upstreams.get(i), upstreams.get(j), separator));
                }
            }
        }
        return Optional.empty();
    }

    /** For the operator: both upstreams as {@code label} names them, and a name both would claim. */
    public String explain(IntFunction<String> label) {
        if (firstName.equals(secondName)) {
            return label.apply(first) + " and " + label.apply(second) + " are both the upstream \"" + firstName
                    + "\": rename one";
        }
        boolean firstLonger = firstName.length() >= secondName.length();
        String longer = firstLonger ? firstName : secondName;
        String shorter = firstLonger ? secondName : firstName;
        String example = longer + separator + "x";
        return label.apply(first) + " and " + label.apply(second) + " could name the same tool or prompt once "
                + "prefixed (\"" + example + "\" would be " + shorter + "'s \""
                + example.substring(shorter.length() + separator.length()) + "\" and " + longer + "'s \"x\"): "
                + "rename one";
    }
}
