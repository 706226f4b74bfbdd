package dev.warden.gateway.internal;

import java.util.List;
import java.util.Optional;

/**
 * How the tools and prompts of several upstreams share one list without colliding:
 * {@code <upstream><separator><name>} ({@code crm__lookup}); an upstream's own names may hold
 * anything, the separator included. With one upstream the names are left as they are (a drop-in),
 * unless prefixing is asked for.
 *
 * <p>A prefixed name belongs to the upstream whose name and separator begin it. Two upstreams
 * {@code a} and {@code b} could claim the same prefixed name iff {@code a + separator} begins
 * {@code b + separator} or the reverse ({@code h} and {@code h_}: {@code h___x} is h's {@code _x}
 * and h_'s {@code x}); such a pair is refused at start ({@link #clash}), so every prefixed name
 * has one owner at most.
 */
public record Naming(boolean prefixed, String separator) {

    public static final String DEFAULT_SEPARATOR = "__";

    public Naming {
        if (separator.isEmpty()) {
            throw new IllegalArgumentException("the namespace separator must not be empty");
        }
    }

    public static Naming forUpstreams(int count) {
        return new Naming(count > 1, DEFAULT_SEPARATOR);
    }

    /** An upstream's own name as the client sees it. */
    String exposed(UpstreamLink link, String name) {
        return prefixed ? link.name() + separator + name : name;
    }

    /** The upstream and its own name for a name the client sent, if it names one (one at most: no clash). */
    Optional<Target> resolve(List<UpstreamLink> links, String exposed) {
        if (!prefixed) {
            return links.isEmpty() ? Optional.empty() : Optional.of(new Target(links.get(0), exposed));
        }
        for (UpstreamLink link : links) {
            String prefix = link.name() + separator;
            if (exposed.startsWith(prefix)) {
                return Optional.of(new Target(link, exposed.substring(prefix.length())));
            }
        }
        return Optional.empty();
    }

    /**
     * The first two upstream names (in order) whose prefixed names could be the same string, the
     * same name twice included.
     */
    public static Optional<Clash> clash(List<String> upstreams, String separator) {
        for (int i = 0; i < upstreams.size(); i++) {
            for (int j = i + 1; j < upstreams.size(); j++) {
                String a = upstreams.get(i) + separator;
                String b = upstreams.get(j) + separator;
                if (a.startsWith(b) || b.startsWith(a)) {
                    return Optional.of(new Clash(i, j, upstreams.get(i), upstreams.get(j), separator));
                }
            }
        }
        return Optional.empty();
    }

    /** Upstreams {@code first} and {@code second} (indexes in the list given, and their names) could claim one name. */
    public record Clash(int first, int second, String firstName, String secondName, String separator) {

        /** For the operator: both upstreams as {@code label} names them, and a name both would claim. */
        public String explain(java.util.function.IntFunction<String> label) {
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

    record Target(UpstreamLink link, String name) {
    }
}
