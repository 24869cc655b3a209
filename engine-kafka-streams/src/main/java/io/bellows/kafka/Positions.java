package io.bellows.kafka;

import java.util.Map;
import java.util.Optional;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.query.PositionBound;

/** The input offsets a store has seen, for the position bounds of interactive queries (KIP-796). */
final class Positions {
    private Positions() {
    }

    /** Adds the offset of the record being processed, if any, to {@code position}. */
    static void update(Position position, StateStoreContext context) {
        if (context == null) {
            return;
        }
        Optional<RecordMetadata> meta = context.recordMetadata();
        if (meta.isPresent() && meta.get().topic() != null) {
            position.withComponent(meta.get().topic(), meta.get().partition(), meta.get().offset());
        }
    }

    /**
     * Whether a store of task partition {@code partition} at {@code position} may answer a query bound
     * by {@code bound}: for every input topic the bound names for this partition, the store has seen at
     * least that offset.
     */
    static boolean permitted(Position position, PositionBound bound, int partition) {
        if (bound.isUnbounded()) {
            return true;
        }
        Position required = bound.position();
        for (String topic : required.getTopics()) {
            Map<Integer, Long> wanted = required.getPartitionPositions(topic);
            Long offset = wanted.get(partition);
            if (offset == null) {
                continue;
            }
            Map<Integer, Long> seenByPartition = position.getPartitionPositions(topic);
            Long seen = seenByPartition == null ? null : seenByPartition.get(partition);
            if (seen == null || seen < offset) {
                return false;
            }
        }
        return true;
    }
}
