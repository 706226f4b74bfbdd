package orders.desk;

/** One order as the tools return it. */
public record Order(String id, String customer, String sku, int quantity, long totalCents) {
}
