package orders;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.LinkedHashMap;
import java.util.Map;

/** Orders in memory: one shipped, one awaiting shipment. */
@ApplicationScoped
public class Orders {

    public enum Status { PAID, SHIPPED, CANCELLED }

    public record Order(String id, String customerEmail, long totalCents, Status status, String paymentId,
            String trackingNumber) {
    }

    private final Map<String, Order> orders = new LinkedHashMap<>();

    public Orders() {
        orders.put("ord_7001", new Order("ord_7001", "ines@example.org", 8_990, Status.SHIPPED, "pay_31f9", "1Z999AA10123456784"));
        orders.put("ord_7002", new Order("ord_7002", "jon@example.org", 2_450, Status.PAID, "pay_77c2", null));
        orders.put("ord_7003", new Order("ord_7003", "kim@example.org", 15_000, Status.SHIPPED, "pay_90ab", "1Z999AA10000000000"));
    }

    public synchronized Order find(String id) {
        if (id == null || !id.matches("ord_[0-9]{1,12}")) {
            throw new IllegalArgumentException("order_id must look like ord_123, got '" + id + "'");
        }
        Order o = orders.get(id);
        if (o == null) {
            throw new IllegalArgumentException("Order " + id + " not found");
        }
        return o;
    }

    public synchronized Order cancel(String id, String reason) {
        Order o = find(id);
        if (o.status() == Status.SHIPPED) {
            throw new IllegalStateException("Order " + id + " has already shipped and cannot be cancelled; start a return instead");
        }
        Order cancelled = new Order(o.id(), o.customerEmail(), o.totalCents(), Status.CANCELLED, o.paymentId(), null);
        orders.put(id, cancelled);
        return cancelled;
    }

    public synchronized Order refundable(String id, int amountCents) {
        Order o = find(id);
        if (amountCents <= 0 || amountCents > o.totalCents()) {
            throw new IllegalArgumentException("amount_cents must be between 1 and " + o.totalCents() + " for " + id);
        }
        return o;
    }
}
