package dev.warden.audit;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * How much of the server the audit reached: the tools it listed, how that listing ended, and how
 * many of them it probed (sent at least one call to, whatever came back). A grade is given on what
 * was probed; a server none of whose tools was probed gets none ({@link #incomplete()}).
 *
 * @param listed   the tools kept from the listing (at most the audit's bound)
 * @param probed   of those, the tools at least one probe was sent to
 * @param listing  how the tools listing ended
 * @param unprobed why listed tools were not probed, one reason each (--allow-destructive, the budget, …)
 */
public record Coverage(int listed, int probed, Listing listing, List<String> unprobed) {

    /** How the tools listing ended. */
    public sealed interface Listing {
        /** The server said it was all (no next cursor), or offers no tools. */
        record Ended() implements Listing {
        }

        /** The audit stopped reading at one of its bounds (tools, bytes, pages): the server lists more. */
        record Cut(String why) implements Listing {
            public Cut {
                Objects.requireNonNull(why, "why");
            }
        }

        /** It did not end: a pagination loop, a failure, or the budget spent first. */
        record Unfinished(String why) implements Listing {
            public Unfinished {
                Objects.requireNonNull(why, "why");
            }
        }
    }

    public Coverage {
        if (listed < 0 || probed < 0 || probed > listed) {
            throw new IllegalArgumentException("probed " + probed + " of " + listed + " listed tools");
        }
        Objects.requireNonNull(listing, "listing");
        unprobed = List.copyOf(unprobed);
    }

    /** Every one of {@code tools} listed tools probed, the listing ended. */
    public static Coverage complete(int tools) {
        return new Coverage(tools, tools, new Listing.Ended(), List.of());
    }

    /**
     * Why the server cannot be graded: no tool was probed, though it lists tools or its listing did
     * not end. A server that lists no tool, and says so, is graded on the rest (unknown names,
     * malformed frames, definitions).
     */
    public Optional<String> incomplete() {
        if (probed > 0) {
            return Optional.empty();
        }
        if (listing instanceof Listing.Unfinished u) {
            return Optional.of("no tool was probed: the tools listing did not end (" + u.why() + ")");
        }
        if (listed > 0) {
            return Optional.of("no tool was probed: " + listed + " tool(s) listed"
                    + (unprobed.isEmpty() ? "" : "; " + String.join("; ", unprobed)));
        }
        return Optional.empty();
    }

    /** Graded, but on part of the server: some listed tools not probed, or the listing not read to its end. */
    public boolean partial() {
        return incomplete().isEmpty() && (probed < listed || !(listing instanceof Listing.Ended));
    }

    /** In words: {@code 12 of 20 tools probed (the budget …); the listing was cut (…)}. */
    public String summary() {
        StringBuilder out = new StringBuilder().append(probed).append(" of ").append(listed).append(" tools probed");
        if (!unprobed.isEmpty()) {
            out.append(" (").append(String.join("; ", unprobed)).append(')');
        }
        switch (listing) {
            case Listing.Ended e -> { }
            case Listing.Cut c -> out.append("; the listing was cut: ").append(c.why());
            case Listing.Unfinished u -> out.append("; the listing did not end: ").append(u.why());
        }
        return out.toString();
    }

    /** {@code ended}, {@code cut} or {@code unfinished}: the listing's end as a word for machine-readable reports. */
    public String listingWord() {
        return switch (listing) {
            case Listing.Ended e -> "ended";
            case Listing.Cut c -> "cut";
            case Listing.Unfinished u -> "unfinished";
        };
    }
}
