package orders;

// doc:detect
import dev.warden.core.sanitize.Sanitizer;
import java.nio.file.*;
public class Detect {
  public static void main(String[] a) throws Exception {
    String c = Sanitizer.clean(Files.readString(Path.of(a[0])));
    for (var f : Sanitizer.ofDefaults().detect(c)) System.out.println(f + " -> ["
        + c.substring(Math.max(0, f.start() - 60), Math.min(c.length(), f.end() + 5)).replace("\n", "\\n") + "]");
  }
}
// end:detect
