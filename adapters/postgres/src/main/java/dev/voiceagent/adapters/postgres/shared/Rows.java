package dev.voiceagent.adapters.postgres.shared;

import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/** Maps a result set to a list, one element per row in order. */
public final class Rows {

    private Rows() {
    }

    public static <T> List<T> list(RowSet<Row> rows, Function<Row, T> mapper) {
        List<T> out = new ArrayList<>(rows.size());
        rows.forEach(r -> out.add(mapper.apply(r)));
        return out;
    }
}
