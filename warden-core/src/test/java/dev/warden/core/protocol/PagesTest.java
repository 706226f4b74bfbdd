package dev.warden.core.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.warden.core.error.ProtocolException;
import dev.warden.core.json.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Both halves of paging: the pages served with opaque cursors, and the pages read cursor to cursor. */
class PagesTest {

    @Test
    void pagesAreServedInOrderWithACursorUntilTheLast() {
        List<Integer> all = List.of(1, 2, 3, 4, 5);
        Pages.Page<Integer> first = Pages.page(all, Optional.empty(), 2);
        assertThat(first.items()).containsExactly(1, 2);
        Pages.Page<Integer> second = Pages.page(all, first.nextCursor(), 2);
        assertThat(second.items()).containsExactly(3, 4);
        Pages.Page<Integer> last = Pages.page(all, second.nextCursor(), 2);
        assertThat(last.items()).containsExactly(5);
        assertThat(last.nextCursor()).isEmpty();
    }

    @Test
    void aCursorNotOfThisServerIsInvalidParamsWithoutEchoingIt() {
        for (String bad : List.of("not-a-cursor", Pages.encode(7), "x".repeat(65), "d2RuMTotMQ")) {
            assertThatThrownBy(() -> Pages.page(List.of(1, 2, 3), Optional.of(bad), 2))
                    .isInstanceOf(ProtocolException.class).hasMessageNotContaining(bad);
        }
    }

    @Test
    void everyPageIsReadFollowingItsCursor() throws Exception {
        List<Integer> all = List.of(1, 2, 3, 4, 5);
        List<String> asked = new ArrayList<>();
        List<JsonNode> read = new ArrayList<>();
        Pages.readAll(params -> {
            asked.add(params.toString());
            Pages.Page<Integer> page = Pages.page(all, Pages.next(Json.object().set(Pages.NEXT_CURSOR,
                    params.get(Pages.CURSOR))), 2);
            ObjectNode out = Json.object();
            page.items().forEach(out.putArray("items")::add);
            page.nextCursor().ifPresent(c -> out.put(Pages.NEXT_CURSOR, c));
            return Optional.of(out);
        }, read::add);
        assertThat(read).extracting(p -> p.path("items").toString()).containsExactly("[1,2]", "[3,4]", "[5]");
        assertThat(asked.get(0)).isEqualTo("{}");
    }

    @Test
    void aListThatNeverEndsIsReadAtMostMaxReadPages() throws Exception {
        int[] pages = {0};
        Pages.readAll(params -> Optional.of(Json.object().put(Pages.NEXT_CURSOR, "again")), page -> pages[0]++);
        assertThat(pages[0]).isEqualTo(Pages.MAX_READ);
    }

    @Test
    void aPageNotGivenStopsTheReadingAndKeepsWhatWasRead() throws Exception {
        List<JsonNode> read = new ArrayList<>();
        boolean whole = Pages.readAll(params -> params.has(Pages.CURSOR) ? Optional.empty()
                : Optional.of(Json.object().put(Pages.NEXT_CURSOR, "more")), read::add);
        assertThat(whole).isFalse();
        assertThat(read).hasSize(1);
    }

    @Test
    void anEmptyNextCursorEndsTheList() throws Exception {
        int[] pages = {0};
        boolean whole = Pages.readAll(params -> Optional.of(Json.object().put(Pages.NEXT_CURSOR, "")), page -> pages[0]++);
        assertThat(whole).isTrue();
        assertThat(pages[0]).isEqualTo(1);
    }

    @Test
    void aReaderMayAllowFewerPages() throws Exception {
        int[] pages = {0};
        Pages.readAll(params -> Optional.of(Json.object().put(Pages.NEXT_CURSOR, "again")), page -> pages[0]++, 10);
        assertThat(pages[0]).isEqualTo(10);
    }
}
