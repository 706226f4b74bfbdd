package dev.warden.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The training client names, on each later request, the version the gateway chose in its answer to initialize. */
class GatewayTrainingTest {

    private static final String ANSWER = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"protocolVersion\":\"2025-11-25\"}}";

    @Test
    void aJsonBodyGivesItsVersion() {
        assertThat(GatewayTraining.negotiatedVersion("application/json", ANSWER)).contains("2025-11-25");
    }

    @Test
    void anEventStreamGivesTheVersionOfTheEventThatAnswers() {
        String stream = "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\"}\n\n"
                + "id: 2\ndata: " + ANSWER + "\n\n";
        assertThat(GatewayTraining.negotiatedVersion("text/event-stream", stream)).contains("2025-11-25");
    }

    @Test
    void aBodyThatIsNoJsonGivesNone() {
        assertThat(GatewayTraining.negotiatedVersion("text/html", "<h1>Bad Gateway</h1>")).isEmpty();
    }
}
