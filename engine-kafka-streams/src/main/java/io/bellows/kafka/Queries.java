package io.bellows.kafka;

import java.util.function.Function;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.query.PositionBound;
import org.apache.kafka.streams.query.Query;
import org.apache.kafka.streams.query.QueryConfig;
import org.apache.kafka.streams.query.QueryResult;

/**
 * Interactive queries (KIP-796) as Kafka's own stores answer them: refused while the store has not yet
 * seen the offsets the bound asks for, answered by {@code answer} (null for a query type the store does
 * not serve), stamped with the store's position and, if asked, where and how long it ran.
 */
final class Queries {
    private Queries() {
    }

    @SuppressWarnings("unchecked")
    static <R> QueryResult<R> run(StateStore store, Position position, StateStoreContext context, Query<R> query,
            PositionBound bound, QueryConfig config, Function<Query<?>, QueryResult<?>> answer) {
        long start = System.nanoTime();
        synchronized (position) {
            int partition = context.taskId().partition();
            if (!Positions.permitted(position, bound, partition)) {
                return QueryResult.notUpToBound(position, bound, partition);
            }
            QueryResult<R> result = (QueryResult<R>) answer.apply(query);
            if (result == null) {
                result = QueryResult.forUnknownQueryType(query, store);
            }
            if (config.isCollectExecutionInfo()) {
                result.addExecutionInfo("Handled in " + store.getClass() + " in " + (System.nanoTime() - start) + "ns");
            }
            result.setPosition(position.copy());
            return result;
        }
    }
}
