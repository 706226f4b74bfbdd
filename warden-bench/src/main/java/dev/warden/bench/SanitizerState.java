package dev.warden.bench;

import dev.warden.core.sanitize.Sanitizer;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;

/** What the sanitizer's benchmarks share: the input's size and a sanitizer that processes all of it. */
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public abstract class SanitizerState extends AverageTimeBenchmark {

    @Param({"65536", "1048576"})
    public int size;

    // No length cap, so the whole input is processed and time can be compared across sizes.
    protected final Sanitizer sanitizer = Sanitizer.builder().maxOutputChars(Integer.MAX_VALUE / 2).build();
}
