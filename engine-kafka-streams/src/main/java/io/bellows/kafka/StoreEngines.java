package io.bellows.kafka;

import io.bellows.engine.Engine;
import io.bellows.engine.EngineOptions;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.apache.kafka.streams.processor.StateStoreContext;

/** Opening and closing the engines behind the stores: directories, the config setter, errors. */
final class StoreEngines {
    /** The folder under a task's state directory holding Bellows stores, like RocksDB's "rocksdb". */
    static final String DIR = "bellows";

    private StoreEngines() {
    }

    /** The directory of store {@code name} of the task of {@code context}. */
    static Path storeDir(StateStoreContext context, String name) {
        return new File(new File(context.stateDir(), DIR), name).toPath();
    }

    /** An engine with its options, as the config setter left them, and the setter to close. */
    record Opened(Engine engine, EngineOptions options, BellowsConfigSetter setter) {
        void close(String storeName) {
            try {
                engine.close();
            } finally {
                if (setter != null) {
                    setter.close(storeName, options);
                }
            }
        }
    }

    /** Opens the engine of {@code storeName} in {@code dir} with {@code base} adjusted by the app's setter. */
    static Opened open(String storeName, Path dir, EngineOptions base, Map<String, Object> appConfigs) {
        EngineOptions.Builder builder = base.toBuilder();
        BellowsConfigSetter setter = configSetter(appConfigs);
        if (setter != null) {
            setter.setConfig(storeName, builder, appConfigs);
        }
        EngineOptions options = builder.build();
        try {
            Files.createDirectories(dir.getParent());
            return new Opened(Engine.open(dir, options), options, setter);
        } catch (IOException | RuntimeException e) {
            if (setter != null) {
                setter.close(storeName, options);
            }
            throw new ProcessorStateException("Error opening Bellows store " + storeName + " at location " + dir, e);
        }
    }

    private static BellowsConfigSetter configSetter(Map<String, Object> configs) {
        Object value = configs == null ? null : configs.get(BellowsConfigSetter.CONFIG);
        if (value == null) {
            return null;
        }
        try {
            if (value instanceof Class<?> c) {
                return (BellowsConfigSetter) Utils.newInstance(c);
            }
            return Utils.newInstance(value.toString().trim(), BellowsConfigSetter.class);
        } catch (ClassNotFoundException | ClassCastException | KafkaException e) {
            throw new ProcessorStateException("Cannot make the " + BellowsConfigSetter.CONFIG + " " + value, e);
        }
    }
}
