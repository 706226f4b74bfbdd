package dev.warden.gateway;

import static dev.warden.gateway.AccessFixture.failure;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.warden.client.McpClient;
import dev.warden.core.identity.Caller;
import dev.warden.core.incident.IncidentSink;
import dev.warden.core.json.Json;
import dev.warden.core.mcp.ProtocolVersion;
import dev.warden.core.error.PeerErrorException;
import dev.warden.gateway.config.Access;
import dev.warden.gateway.config.Limits;
import dev.warden.gateway.config.Upstream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Tasks (MCP 2025-11-25) belong to the caller whose {@code tools/call} created them: with one
 * upstream shared by Alice and Bob (two API keys), Bob sees nothing of Alice's tasks, and every
 * request naming one is answered exactly as one naming a task that never existed. A task's result
 * is a tool's result: the same access decisions and the same sanitizing as the call's.
 */
class GatewayTaskOwnershipTest {

    private static final Caller ALICE = AsCaller.apiKey("alice");
    private static final Caller BOB = AsCaller.apiKey("bob");

    private final TaskingUpstream upstream = new TaskingUpstream();
    private final List<McpClient> clients = new ArrayList<>();
    private Gateway gateway;

    private Gateway gateway(String... rules) {
        Gateway.Builder b = builder();
        if (rules.length > 0) {
            b.access(Access.of(rules));
        }
        gateway = b.build();
        return gateway;
    }

    private Gateway.Builder builder() {
        return Gateway.builder().incidents(IncidentSink.all()).upstream(Upstream.of("tasking", upstream.connector()));
    }

    private McpClient as(Caller caller) {
        return as(caller, (method, params) -> { });
    }

    private McpClient as(Caller caller, dev.warden.core.session.NotificationHandler notifications) {
        McpClient c = McpClient.builder("c", "1").requestTimeout(Duration.ofSeconds(30))
                .protocolVersion(ProtocolVersion.latestSessionBased()).onNotification(notifications)
                .connect(AsCaller.via(gateway, caller, "10.0.0.1"));
        clients.add(c);
        return c;
    }

    @AfterEach
    void close() {
        clients.forEach(McpClient::close);
        if (gateway != null) {
            gateway.close();
        }
        upstream.close();
    }

    private static String startTask(McpClient client, String topic, boolean hold) {
        ObjectNode p = Json.object().put("name", "research");
        p.putObject("arguments").put("topic", topic).put("hold", hold);
        p.putObject("task").put("ttl", 60000);
        JsonNode created = client.request("tools/call", p);
        String id = created.path("task").path("taskId").asString("");
        assertThat(id).as("a CreateTaskResult: %s", created).isNotEmpty();
        return id;
    }

    private static ObjectNode id(String taskId) {
        return Json.object().put("taskId", taskId);
    }

    private static List<String> listed(McpClient client) {
        List<String> ids = new ArrayList<>();
        client.request("tasks/list", Json.object()).path("tasks").forEach(t -> ids.add(t.path("taskId").asString()));
        return ids;
    }

    @Test
    void bobsTaskListShowsNoneOfAlicesTasks() {
        gateway();
        McpClient alice = as(ALICE);
        McpClient bob = as(BOB);
        String a1 = startTask(alice, "cats", false);
        String b1 = startTask(bob, "dogs", false);
        String a2 = startTask(alice, "owls", false);
        String a3 = startTask(alice, "bees", false);

        assertThat(listed(bob)).containsExactly(b1);
        assertThat(listed(alice)).containsExactly(a1, a2, a3);
    }

    @Test
    void bobAskingForAlicesTaskIsAnsweredAsForATaskThatNeverExisted() {
        gateway();
        McpClient alice = as(ALICE);
        McpClient bob = as(BOB);
        String hers = startTask(alice, "cats", true);

        for (String method : List.of("tasks/get", "tasks/result", "tasks/cancel")) {
            String unknown = failure(() -> bob.request(method, id("task-999")));
            assertThat(unknown).as(method).startsWith("-32602");
            assertThat(failure(() -> bob.request(method, id(hers)))).as(method).isEqualTo(unknown);
        }
        assertThat(upstream.status(hers)).isEqualTo("working");
    }

    @Test
    void theOwnerGetsHerTaskItsResultAndCancelsIt() {
        gateway();
        McpClient alice = as(ALICE);
        String done = startTask(alice, "cats", false);
        String held = startTask(alice, "owls", true);

        assertThat(alice.request("tasks/get", id(done)).path("status").asString()).isEqualTo("completed");
        assertThat(alice.request("tasks/result", id(done)).path("content").get(0).path("text").asString())
                .isEqualTo("report on cats");
        assertThat(alice.request("tasks/cancel", id(held)).path("status").asString()).isEqualTo("cancelled");
        assertThat(upstream.status(held)).isEqualTo("cancelled");
    }

    @Test
    void askingAboutATaskSpendsTheCallersRateAsAnyRequestReachingTheUpstreamDoes() {
        gateway = builder().perClient(new Limits.Rate(3, Duration.ofHours(1))).build();
        McpClient alice = as(ALICE);
        String done = startTask(alice, "cats", false);
        assertThat(alice.request("tasks/get", id(done)).path("status").asString()).isEqualTo("completed");
        assertThat(listed(alice)).containsExactly(done);

        for (String method : List.of("tasks/get", "tasks/result", "tasks/cancel", "tasks/list")) {
            ObjectNode params = "tasks/list".equals(method) ? Json.object() : id(done);
            assertThatThrownBy(() -> alice.request(method, params)).as(method)
                    .isInstanceOfSatisfying(PeerErrorException.class, e -> {
                        assertThat(e.error().code()).isEqualTo(-32603);
                        assertThat(e.error().data().orElseThrow().path("code").asString()).isEqualTo("RATE_LIMITED");
                    });
        }
    }

    @Test
    void theOwnerInAnotherSessionStillOwnsHerTask() {
        gateway();
        String hers = startTask(as(ALICE), "cats", false);
        assertThat(as(ALICE).request("tasks/result", id(hers)).path("content").get(0).path("text").asString())
                .isEqualTo("report on cats");
    }

    @Test
    void aTaskResultThatIsAFailureIsSanitizedAsTheToolsFailureWouldBe() {
        gateway();
        McpClient alice = as(ALICE);
        String crashed = startTask(alice, "crash", false);

        JsonNode result = alice.request("tasks/result", id(crashed));
        assertThat(result.path("isError").asBoolean(false)).isTrue();
        assertThat(result.toString()).doesNotContain("/srv/research").doesNotContain("keys.db");
    }

    @Test
    void aCallerWhoLostAccessToTheToolDoesNotGetItsTask() {
        gateway("mcp.kind != 'tool' || 'research' in caller.scopes");
        Caller withScope = AsCaller.apiKey("alice", "research");
        String hers = startTask(as(withScope), "cats", false);
        McpClient without = as(ALICE);

        for (String method : List.of("tasks/get", "tasks/result", "tasks/cancel")) {
            String unknown = failure(() -> without.request(method, id("task-999")));
            assertThat(failure(() -> without.request(method, id(hers)))).as(method).isEqualTo(unknown);
        }
        assertThat(listed(without)).isEmpty();
        assertThat(as(withScope).request("tasks/get", id(hers)).path("status").asString()).isEqualTo("completed");
    }

    @Test
    void aCallerWhoseTokenLacksTheToolsScopesDoesNotGetItsTask() {
        gateway = builder().toolScopes(tool -> "research".equals(tool) ? Set.of("research:run") : Set.of()).build();
        String hers = startTask(as(AsCaller.apiKey("alice", "research:run")), "cats", false);
        McpClient without = as(ALICE);

        String unknown = failure(() -> without.request("tasks/result", id("task-999")));
        assertThat(failure(() -> without.request("tasks/result", id(hers)))).isEqualTo(unknown);
        assertThat(listed(without)).isEmpty();
    }

    @Test
    void aTasksStatusNotificationReachesOnlyItsOwner() throws Exception {
        gateway();
        BlockingQueue<String> bobHeard = new LinkedBlockingQueue<>();
        McpClient alice = as(ALICE);
        McpClient bob = as(BOB, (method, params) -> {
            if ("notifications/tasks/status".equals(method)) {
                bobHeard.add(params.map(p -> p.path("taskId").asString("")).orElse(""));
            }
        });
        String hers = startTask(alice, "cats", true);
        String his = startTask(bob, "dogs", true);
        alice.request("tasks/cancel", id(hers));
        bob.request("tasks/cancel", id(his));

        // Notifications come in order: by the time his own arrives, hers would have.
        assertThat(bobHeard.poll(10, TimeUnit.SECONDS)).isEqualTo(his);
        assertThat(bobHeard).isEmpty();
    }

    @Test
    void aMethodTheGatewayHasNoRuleForIsNotForwardedToAnUpstreamSharedBetweenCallers() {
        gateway();
        McpClient alice = as(ALICE);
        assertThat(failure(() -> alice.request("x/echo", Json.object().put("say", "hi")))).startsWith("-32601");
    }

    @Test
    void aMethodTheGatewayHasNoRuleForStillReachesAClientsOwnUpstream() {
        ownUpstream();
        McpClient alice = as(ALICE);
        assertThat(alice.request("x/echo", Json.object().put("say", "hi")).path("say").asString()).isEqualTo("hi");
    }

    @Test
    void onAClientsOwnUpstreamTasksAreAnsweredAsTheUpstreamAnswers() {
        ownUpstream();
        McpClient alice = as(ALICE);
        String hers = startTask(alice, "cats", false);
        assertThat(listed(alice)).containsExactly(hers);
        assertThat(failure(() -> alice.request("tasks/get", id("task-999"))))
                .startsWith("-32602 Failed to retrieve task: Task not found");
    }

    /** A per-client upstream with a server of its own per connection (as a stdio process is). */
    private void ownUpstream() {
        Upstream.OwnServer ownServer = () -> upstream.connector().get();
        gateway = Gateway.builder().incidents(IncidentSink.all())
                .upstream(Upstream.of("tasking", ownServer).toBuilder().perClient(true).build()).build();
    }
}
