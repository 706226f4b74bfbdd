package dev.warden.console.page;

/**
 * A page being written: the console's own markup goes in with {@link #tag} (string literals and
 * numbers only), anything else with {@link #text} or {@link #block}, which escape it. Keeping the
 * two apart by name is what makes "every untrusted string escaped" checkable by reading.
 */
public final class Markup {

    private final StringBuilder out = new StringBuilder(8192);

    /** The console's own markup: a literal, never a value from outside. */
    public Markup tag(String trusted) {
        out.append(trusted);
        return this;
    }

    /** A number, as it is. */
    public Markup number(long n) {
        out.append(n);
        return this;
    }

    /** Untrusted text on one line, escaped ({@link Html#text}). */
    public Markup text(String untrusted) {
        out.append(Html.text(untrusted));
        return this;
    }

    /** Untrusted text of several lines, escaped ({@link Html#block}). */
    public Markup block(String untrusted) {
        out.append(Html.block(untrusted));
        return this;
    }

    /** An untrusted value in a link's path or query ({@link Html#uriComponent}). */
    public Markup uriComponent(String untrusted) {
        out.append(Html.uriComponent(untrusted));
        return this;
    }

    /** Another page part, already written through this class. */
    public Markup append(Markup part) {
        out.append(part.out);
        return this;
    }

    @Override
    public String toString() {
        return out.toString();
    }
}
