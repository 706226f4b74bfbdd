package dev.warden.console.page;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

/** The frame of every page: head with the console's stylesheet, navigation, the time shown, footer. */
public final class Frame {

    private Frame() {
    }

    /** @param title the console's own words (a page about one incident puts its ref in the body, not here) */
    public static String page(Tab here, String title, Instant now, Markup body) {
        Markup m = new Markup().tag("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
                .tag("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
                .tag("<title>Warden console · ").text(title).tag("</title>")
                .tag("<link rel=\"stylesheet\" href=\"").tag(Style.PATH).tag("\"></head>\n<body><header>")
                .tag("<span class=\"brand\">Warden console</span><nav>");
        for (Tab tab : Tab.values()) {
            m.tag("<a href=\"").tag(tab.path()).tag(tab == here ? "\" class=\"here\">" : "\">").tag(tab.label())
                    .tag("</a>");
        }
        return m.tag("</nav><span class=\"now\">as of ").text(now.truncatedTo(ChronoUnit.SECONDS).toString())
                .tag("</span></header>\n<main>").append(body)
                .tag("</main>\n<footer>Read only. Originals shown here are for operators: never paste them where a "
                        + "client or a model reads.</footer></body></html>\n").toString();
    }
}
