package io.bellows.kafka;

import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.processor.internals.metrics.StreamsMetricsImpl;
import org.apache.kafka.streams.processor.internals.metrics.TaskMetrics;

/**
 * The sensor expired writes are recorded on: the task's dropped-records sensor, which Kafka's own window
 * and session stores use, reached through Kafka's internal metrics classes (there is no public way to
 * share the task-level sensor) so that applications see one dropped-records metric whichever store
 * they use. A context whose metrics are not Kafka's own (a test harness of another kind) gets a sensor
 * of the store's own through the public {@code StreamsMetrics} API instead.
 */
final class DroppedRecords {
    private DroppedRecords() {
    }

    static Sensor sensor(StateStoreContext context, String storeName) {
        if (context.metrics() instanceof StreamsMetricsImpl metrics) {
            return TaskMetrics.droppedRecordsSensor(Thread.currentThread().getName(), context.taskId().toString(), metrics);
        }
        return context.metrics().addSensor(storeName + "-expired-records", Sensor.RecordingLevel.INFO);
    }
}
