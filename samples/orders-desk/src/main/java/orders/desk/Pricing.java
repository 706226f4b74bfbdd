package orders.desk;

import java.util.Locale;
import java.util.Map;

/** Totals after discount: the NullPointerException seed lives here, a few frames below the tool. */
final class Pricing {

    private static final Map<String, Integer> PERCENT_OFF = Map.of("SPRING10", 10, "VIP25", 25);

    private Pricing() {
    }

    static long discounted(long totalCents, String discountCode) {
        return totalCents * (100 - percentOff(discountCode)) / 100;
    }

    // The bug: orders without a discount have a NULL code, and normalising it throws.
    private static int percentOff(String discountCode) {
        String normalised = discountCode.trim().toUpperCase(Locale.ROOT);
        return PERCENT_OFF.getOrDefault(normalised, 0);
    }
}
