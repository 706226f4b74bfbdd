package dev.warden.audit.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** What a tool's name, description and annotations say it does. */
class ToolNamesTest {

    private static JsonNode tool(String json) {
        return Json.mapper().readTree(json);
    }

    @Test
    void words_split_on_separators_and_camel_case() {
        assertThat(ToolNames.words("sendEmail_now-fast.v2")).containsExactly("send", "email", "now", "fast", "v2");
    }

    @Test
    void a_name_that_writes_deletes_sends_or_pays_is_destructive() {
        for (String name : List.of("delete_file", "sendEmail", "pay-invoice", "db.drop", "transferFunds", "killProcess",
                "purchaseItem", "post_message", "submit_order", "cancel_subscription", "set_config")) {
            assertThat(ToolNames.destructive(tool("{\"name\":\"" + name + "\"}"))).as(name).isPresent();
        }
        assertThat(ToolNames.destructive(tool("{\"name\":\"read_file\"}"))).isEmpty();
        assertThat(ToolNames.destructive(tool("{\"name\":\"deleted_items_count\"}"))).isEmpty();
    }

    @Test
    void a_name_that_says_so_in_another_form_of_the_verb_is_destructive_too() {
        for (String name : List.of("process_payment", "email_customer", "mail_user", "place_order",
                "s3Delete", "wire_funds", "evaluate_js", "sending_invoice", "dropping_table", "request_payout")) {
            assertThat(ToolNames.destructive(tool("{\"name\":\"" + name + "\"}"))).as(name).isPresent();
        }
        for (String name : List.of("orders", "emails", "list_orders", "get_settings", "search_emails", "read_graph", "query")) {
            assertThat(ToolNames.destructive(tool("{\"name\":\"" + name + "\"}"))).as(name).isEmpty();
        }
    }

    @Test
    void a_destructive_hint_makes_any_name_destructive() {
        assertThat(ToolNames.destructive(tool("{\"name\":\"lookup\",\"annotations\":{\"destructiveHint\":true}}")))
                .contains("annotated destructiveHint");
        assertThat(ToolNames.destructive(tool("{\"name\":\"lookup\",\"annotations\":{\"readOnlyHint\":true}}")))
                .isEmpty();
    }

    @Test
    void a_read_only_hint_does_not_clear_a_name_that_says_it_deletes() {
        assertThat(ToolNames.destructive(tool("{\"name\":\"erase_draft\",\"annotations\":{\"readOnlyHint\":true}}")))
                .contains("its name says 'erase'");
    }

    @Test
    void a_login_tool_needs_a_login_word_and_an_account_and_a_password_property() {
        assertThat(ToolNames.login(tool("{\"name\":\"signIn\",\"inputSchema\":{\"properties\":{\"email\":{},"
                + "\"password\":{}}}}"))).contains(List.of("email", "password"));
        assertThat(ToolNames.login(tool("{\"name\":\"check\",\"description\":\"Verify the password of a user\","
                + "\"inputSchema\":{\"properties\":{\"user_name\":{},\"pwd\":{}}}}"))).contains(List.of("user_name", "pwd"));
        assertThat(ToolNames.login(tool("{\"name\":\"login\",\"inputSchema\":{\"properties\":{\"email\":{}}}}")))
                .isEmpty();
    }

    @Test
    void a_tool_that_says_it_takes_long_is_slow() {
        assertThat(ToolNames.slow(tool("{\"name\":\"longRunningOperation\"}"))).isTrue();
        assertThat(ToolNames.slow(tool("{\"name\":\"x\",\"description\":\"Sleeps for a while\"}"))).isTrue();
        assertThat(ToolNames.slow(tool("{\"name\":\"lookup\",\"description\":\"Finds an order\"}"))).isFalse();
        assertThat(ToolNames.slow(tool("{\"name\":\"sleep\"}"))).isTrue();
    }
}
