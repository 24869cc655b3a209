package io.bellows.ycsb;

import java.nio.charset.StandardCharsets;

/**
 * Engine keys of YCSB records: {@code tableLength:varint table:UTF-8 key:UTF-8}. The length prefix keeps
 * tables apart without reserving a separator byte, and every key of a table sorts by its YCSB key, so a
 * scan is one bounded cursor.
 */
final class StoreKeys {
    private StoreKeys() {}

    static byte[] of(String table, String key) {
        byte[] t = table.getBytes(StandardCharsets.UTF_8);
        byte[] k = key.getBytes(StandardCharsets.UTF_8);
        byte[] out = new byte[RecordCodec.varIntSize(t.length) + t.length + k.length];
        int pos = RecordCodec.putVarInt(out, 0, t.length);
        System.arraycopy(t, 0, out, pos, t.length);
        System.arraycopy(k, 0, out, pos + t.length, k.length);
        return out;
    }

    /**
     * The smallest key above every key of {@code table}: its prefix with the last byte incremented. That byte
     * is below 0xff because it is either the varint's last byte (below 0x80) or a UTF-8 byte (never 0xff).
     */
    static byte[] tableEnd(String table) {
        byte[] end = of(table, "");
        end[end.length - 1]++;
        return end;
    }
}
