package dev.warden.audit.canary;

import dev.warden.audit.canary.Texts.Text;
import java.util.List;
import tools.jackson.databind.JsonNode;

/** An answer as the boolean differential compares it: its strings with what the caller sent taken out. */
final class Differential {

    private Differential() {
    }

    static boolean successful(JsonNode message) {
        JsonNode result = message.path("result");
        return result.isObject() && !result.path("isError").asBoolean(false);
    }

    /** Every string of the result at its pointer, each value the caller sent removed; an error is its code only. */
    static String normalized(JsonNode message, List<String> sent) {
        if (!successful(message)) {
            return "error " + message.path("error").path("code").asInt(0);
        }
        StringBuilder sb = new StringBuilder();
        for (Text t : Texts.of(message.path("result"))) {
            String text = t.text();
            for (String s : sent) {
                if (!s.isEmpty()) {
                    text = text.replace(s, "");
                }
            }
            sb.append(t.pointer()).append('\u0000').append(text).append('\u0000');
        }
        return sb.toString();
    }
}
