package dev.warden.console.page;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;

/** The frame of every page: head with the console's stylesheet, navigation, the time shown, sign-out, footer. */
public final class Frame {

    /** The sign-out form's page (the console's sign-in answers there). */
    public static final String SIGN_OUT = "/logout";

    private Frame() {
    }

    /**
     * The head of a page outside the frame (sign-in, sign-out): the same stylesheet, which is served
     * before the admin gate, and the console's name.
     */
    public static Markup bare(String title) {
        return bare(title, new Markup());
    }

    /** @param head more of the head (a page that moves on: its refresh) */
    public static Markup bare(String title, Markup head) {
        return new Markup().tag("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
                .tag("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
                .tag("<title>Warden console · ").text(title).tag("</title>")
                .tag("<link rel=\"stylesheet\" href=\"").tag(Style.PATH).tag("\">").append(head)
                .tag("</head>\n<body><header><span class=\"brand\">Warden console</span></header>\n");
    }

    /** @param title the console's own words (a page about one incident puts its ref in the body, not here) */
    public static String page(Tab here, String title, Instant now, Markup body) {
        return page(Optional.of(here), title, now, body);
    }

    /** @param here the tab the page belongs to; none for a page that is no tab's (an unknown address) */
    public static String page(Optional<Tab> here, String title, Instant now, Markup body) {
        Markup m = new Markup().tag("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
                .tag("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
                .tag("<title>Warden console · ").text(title).tag("</title>")
                .tag("<link rel=\"stylesheet\" href=\"").tag(Style.PATH).tag("\"></head>\n<body><header>")
                .tag("<span class=\"brand\">Warden console</span><nav>");
        for (Tab tab : Tab.values()) {
            boolean current = here.filter(tab::equals).isPresent();
            m.tag("<a href=\"").tag(tab.path()).tag(current ? "\" class=\"here\">" : "\">").tag(tab.label())
                    .tag("</a>");
        }
        // The sign-out link leads to its form (a POST from the console's own page, so no other site can sign a
        // browser out); without browser sign-in that page says there is nothing to sign out of.
        return m.tag("</nav><span class=\"now\">as of ").text(now.truncatedTo(ChronoUnit.SECONDS).toString())
                .tag("</span><a class=\"sign-out\" href=\"").tag(SIGN_OUT).tag("\">Sign out</a></header>\n<main>").append(body)
                .tag("</main>\n<footer>Read only. Originals shown here are for operators: never paste them where a "
                        + "client or a model reads.</footer></body></html>\n").toString();
    }
}
