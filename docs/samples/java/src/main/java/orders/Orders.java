package orders;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** The samples' stand-in for an application's own data: orders by id. */
final class Orders {

    record Order(String id, boolean shipped) {
    }

    private final Map<String, Order> byId = new ConcurrentHashMap<>(Map.of("o-1", new Order("o-1", false)));

    Optional<Order> find(String id) {
        return Optional.ofNullable(byId.get(id));
    }

    void cancel(Order order) {
        byId.remove(order.id());
    }
}
