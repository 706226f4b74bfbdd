package dev.warden.gateway.internal;

import java.util.List;
import java.util.Optional;

/**
 * How the tools and prompts of several upstreams share one list without colliding:
 * {@code <upstream><separator><name>} ({@code crm__lookup}). Upstream names cannot contain the
 * separator, so a prefixed name splits one way only. With one upstream the names are left as
 * they are (a drop-in), unless prefixing is asked for.
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

    /** The upstream and its own name for a name the client sent, if it names one. */
    Optional<Target> resolve(List<UpstreamLink> links, String exposed) {
        if (!prefixed) {
            return links.isEmpty() ? Optional.empty() : Optional.of(new Target(links.get(0), exposed));
        }
        int cut = exposed.indexOf(separator);
        if (cut <= 0) {
            return Optional.empty();
        }
        String upstream = exposed.substring(0, cut);
        String name = exposed.substring(cut + separator.length());
        return links.stream().filter(l -> l.name().equals(upstream)).findFirst().map(l -> new Target(l, name));
    }

    record Target(UpstreamLink link, String name) {
    }
}
