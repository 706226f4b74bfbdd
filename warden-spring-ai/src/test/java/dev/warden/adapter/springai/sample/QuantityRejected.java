package dev.warden.adapter.springai.sample;

/** The shop's own refusal, from before Warden: it knows the limits it enforces. */
public final class QuantityRejected extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int max;

    public QuantityRejected(int quantity, int max) {
        super("quantity " + quantity + " rejected by OrderPolicy#check (max " + max + ")");
        this.max = max;
    }

    public int max() {
        return max;
    }
}
