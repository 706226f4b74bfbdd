package dev.warden.core.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.jsonrpc.RequestId;
import dev.warden.core.json.Json;
import dev.warden.core.mcp.Prompts;
import dev.warden.core.mcp.Resources;
import dev.warden.core.mcp.Tools;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A notification goes to the listen streams that asked for it, and to nobody once a stream closes. */
class ClientSubscriptionsTest {

    private final ClientSubscriptions following = new ClientSubscriptions();

    @Test
    void eachListenStreamHearsOnlyWhatItsFilterNames() {
        RequestId lists = RequestId.of(1);
        RequestId watched = RequestId.of(2);
        following.open(lists, new ClientSubscriptions.Filter(true, false, true, Set.of()));
        following.open(watched, new ClientSubscriptions.Filter(false, false, false, Set.of("test://a")));
        assertThat(following.listeners(Tools.LIST_CHANGED, "")).containsExactly(lists);
        assertThat(following.listeners(Prompts.LIST_CHANGED, "")).isEmpty();
        assertThat(following.listeners(Resources.LIST_CHANGED, "")).containsExactly(lists);
        assertThat(following.listeners(Resources.UPDATED, "test://a")).containsExactly(watched);
        assertThat(following.listeners(Resources.UPDATED, "test://b")).isEmpty();
        assertThat(following.listeners("notifications/message", "")).isEmpty();
        following.close(watched);
        following.close(lists);
        assertThat(following.listening()).isFalse();
        assertThat(following.listeners(Tools.LIST_CHANGED, "")).isEmpty();
    }

    @Test
    void aSubscriptionLastsUntilUnsubscribed() {
        following.subscribe("test://a");
        assertThat(following.subscribed("test://a")).isTrue();
        following.unsubscribe("test://a");
        assertThat(following.subscribed("test://a")).isFalse();
    }

    @Test
    void theAcknowledgementNamesItsStreamFirstThenWhatWasAgreed() {
        String ack = ClientSubscriptions.acknowledgement(RequestId.of(7), Json.object().put("toolsListChanged", true))
                .toString();
        assertThat(ack).isEqualTo("{\"_meta\":{\"io.modelcontextprotocol/subscriptionId\":7},"
                + "\"notifications\":{\"toolsListChanged\":true}}");
    }
}
