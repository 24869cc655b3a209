package io.bellows.kafka;

import io.bellows.engine.EngineOptions;
import java.util.Map;

/**
 * Adjusts the options of every Bellows store of an application before it opens, as Kafka Streams'
 * {@code RocksDBConfigSetter} does for RocksDB. Name the implementing class (it needs a public no-argument
 * constructor) in the Streams configuration under {@link #CONFIG}:
 *
 * <pre>{@code
 * props.put(BellowsConfigSetter.CONFIG, MyBellowsConfig.class);
 *
 * public class MyBellowsConfig implements BellowsConfigSetter {
 *     public void setConfig(String storeName, EngineOptions.Builder options, Map<String, Object> configs) {
 *         options.compaction(CompactionStyle.FLSM).inMemoryCompaction(InMemoryCompaction.BASIC)
 *                 .memstoreSize(32 << 20);
 *     }
 * }
 * }</pre>
 *
 * <p>One instance is made per opened engine (a key-value store, or one segment of a window or session
 * store), and {@link #close} is called on it when that engine closes.
 */
public interface BellowsConfigSetter {
    /** The Streams configuration key naming the setter class (a {@code Class} or a class name). */
    String CONFIG = "bellows.config.setter";

    /**
     * Changes {@code options}, which hold the supplier's options, for the store {@code storeName}.
     * {@code configs} are the application's configs ({@code StateStoreContext.appConfigs()}).
     */
    void setConfig(String storeName, EngineOptions.Builder options, Map<String, Object> configs);

    /** Releases what {@link #setConfig} made for {@code storeName}, once its engine has closed. */
    default void close(String storeName, EngineOptions options) {
    }
}
