package crm;

import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/** The user directory: in memory, seeded with two customers (one owes money). */
final class Directory {

    record User(String id, String email, String name, String plan, long balanceCents) {
    }

    private final Map<String, User> users = new LinkedHashMap<>();
    private final AtomicInteger next = new AtomicInteger(1003);

    Directory() {
        users.put("usr_1001", new User("usr_1001", "ada@lovelace.example", "Ada Lovelace", "pro", 0));
        users.put("usr_1002", new User("usr_1002", "grace@hopper.example", "Grace Hopper", "team", 12_900));
    }

    synchronized User find(String id) {
        return users.get(id);
    }

    synchronized CallToolResult register(String email, String name, String plan) {
        for (User u : users.values()) {
            if (u.email().equalsIgnoreCase(email)) {
                return refusal("A user with email " + email + " is already registered");
            }
        }
        if (email.toLowerCase().endsWith("@mailinator.com")) {
            return refusal("Disposable email domains are not accepted: " + email);
        }
        String id = "usr_" + next.getAndIncrement();
        users.put(id, new User(id, email, name, plan, 0));
        return ok("Registered " + name + " <" + email + "> as " + id + " on plan " + plan);
    }

    synchronized CallToolResult describe(String id) {
        User u = users.get(id);
        if (u == null) {
            return refusal("User " + id + " not found");
        }
        return ok(u.id() + ": " + u.name() + " <" + u.email() + ">, plan " + u.plan());
    }

    synchronized CallToolResult changePlan(String id, String plan) {
        User u = users.get(id);
        if (u == null) {
            return refusal("User " + id + " not found");
        }
        if (u.balanceCents() > 0 && rank(plan) < rank(u.plan())) {
            return refusal("Cannot downgrade " + id + " while an invoice is unpaid; settle the balance first");
        }
        users.put(id, new User(u.id(), u.email(), u.name(), plan, u.balanceCents()));
        return ok(id + " moved from " + u.plan() + " to " + plan);
    }

    private static int rank(String plan) {
        return switch (plan) {
            case "team" -> 2;
            case "pro" -> 1;
            default -> 0;
        };
    }

    static CallToolResult ok(String text) {
        return CallToolResult.builder().addTextContent(text).build();
    }

    static CallToolResult refusal(String text) {
        return CallToolResult.builder().addTextContent(text).isError(true).build();
    }
}
