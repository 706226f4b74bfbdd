package dev.warden.core.sanitize.trace;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.sanitize.Policy;
import dev.warden.core.sanitize.Sanitizer;
import dev.warden.core.sanitize.detection.Category;
import dev.warden.core.sanitize.detection.Finding;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class HtmlStackTraceDetectorTest {

    private static final String PAGE = "API request failed with status 500: <!DOCTYPE html>\n<html lang=\"en\">\n"
            + "<body>\n<pre>TypeError: Cannot read properties of undefined (reading &#39;name&#39;)<br> &nbsp; &nbsp;"
            + "at file:///srv/shop/api.mjs:15:41<br> &nbsp; &nbsp;at Layer.handle [as handle_request] "
            + "(/srv/shop/node_modules/express/lib/router/layer.js:95:5)<br> &nbsp; &nbsp;at next "
            + "(/srv/shop/node_modules/express/lib/router/route.js:149:13)</pre>\n</body>\n</html>\n";

    private static List<Finding> scan(String text) {
        List<Finding> out = new ArrayList<>();
        new HtmlStackTraceDetector().scan(text, out);
        return out;
    }

    @Test
    void aTraceInAnExpressErrorPageIsFoundWhereThePageHoldsIt() {
        List<Finding> found = scan(PAGE);

        assertThat(found).singleElement().satisfies(f -> {
            assertThat(f.category()).isEqualTo(Category.STACK_TRACE);
            String span = PAGE.substring(f.start(), f.end());
            assertThat(span).contains("api.mjs:15:41").contains("route.js:149:13");
        });
    }

    @Test
    void theSanitizerRemovesTheTraceFromThePage() {
        String out = Sanitizer.ofDefaults().sanitize(PAGE, Policy.REDACT).output();

        assertThat(out).doesNotContain("layer.js").doesNotContain("api.mjs").contains("[redacted:stack-trace]");
    }

    @Test
    void htmlWithoutATraceAndTextWithoutHtmlHaveNone() {
        assertThat(scan("<p>Saved.<br>See you at the meeting at 10:30</p>")).isEmpty();
        assertThat(scan("at handler (/app/x.js:1:2)")).isEmpty(); // plain text: the line-based detector's
    }
}
