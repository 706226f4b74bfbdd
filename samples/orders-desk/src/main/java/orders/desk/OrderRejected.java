package orders.desk;

/**
 * A refusal the caller can fix, written on purpose for the model to read (trusted text). Each
 * framework binding turns it into that framework's own tool error where it has one.
 */
public final class OrderRejected extends RuntimeException {

    public OrderRejected(String message) {
        super(message);
    }
}
