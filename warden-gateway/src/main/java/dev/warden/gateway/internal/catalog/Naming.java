package dev.warden.gateway.internal.catalog;

import dev.warden.gateway.internal.upstream.UpstreamLink;
import java.util.List;
import java.util.Optional;

/**
 * How the tools and prompts of several upstreams share one list: {@code <upstream><separator><name>}
 * ({@code crm__lookup}); with one upstream the names stay as they are unless prefixing is asked for.
 * A prefixed name belongs to the upstream whose name and separator begin it; two upstreams that
 * could both claim one ({@code h} and {@code h_}) are refused at start ({@link
 * dev.warden.gateway.config.NameClash}), so every prefixed name has one owner at most.
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
    public String exposed(UpstreamLink link, String name) {
        return prefixed ? link.name() + separator + name : name;
    }

    /** The upstream and its own name for a name the client sent, if it names one (one at most: no clash). */
    public Optional<Target> resolve(List<UpstreamLink> links, String exposed) {
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

    public record Target(UpstreamLink link, String name) {
    }
}
