package io.bellows.kafka;

import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.processor.internals.metrics.StreamsMetricsImpl;
import org.apache.kafka.streams.processor.internals.metrics.TaskMetrics;

/**
 * The task's dropped-records sensor, which Kafka's own window and session stores record expired writes
 * on. It is reached through Kafka's internal metrics classes (there is no public way to share the
 * task-level sensor), so that applications see one dropped-records metric whichever store they use.
 */
final class DroppedRecords {
    private DroppedRecords() {
    }

    static Sensor sensor(StateStoreContext context) {
        return TaskMetrics.droppedRecordsSensor(Thread.currentThread().getName(), context.taskId().toString(),
                (StreamsMetricsImpl) context.metrics());
    }
}
