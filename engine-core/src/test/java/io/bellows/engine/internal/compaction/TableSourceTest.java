package io.bellows.engine.internal.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.internal.iter.InternalIterator;
import io.bellows.engine.internal.key.Lookup;
import io.bellows.engine.internal.table.OpenTable;
import io.bellows.engine.internal.version.FileMeta;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TableSourceTest {
    /** Opens tables in order; the table numbered {@code failing} cannot be opened. */
    private static final class Source implements TableSource {
        final List<Empty> opened = new ArrayList<>();
        final long failing;

        Source(long failing) {
            this.failing = failing;
        }

        @Override
        public InternalIterator iterator(FileMeta file, boolean fillCache) throws IOException {
            if (file.number == failing) {
                throw new IOException("table " + file.number + " unreadable");
            }
            Empty e = new Empty();
            opened.add(e);
            return e;
        }

        @Override
        public boolean get(FileMeta file, byte[] key, long seq, boolean fillCache, Lookup out) {
            throw new UnsupportedOperationException();
        }

        @Override
        public <T extends OpenTable> T reader(FileMeta file, Class<T> format) {
            throw new UnsupportedOperationException();
        }
    }

    private static final class Empty implements InternalIterator {
        boolean closed;

        @Override
        public boolean isValid() {
            return false;
        }

        @Override
        public void seekToFirst() {}

        @Override
        public void seek(byte[] userKey, long sequence) {}

        @Override
        public void seekToLast() {}

        @Override
        public void seekForPrev(byte[] userKey, long sequence) {}

        @Override
        public void next() {}

        @Override
        public void prev() {}

        @Override
        public byte[] key() {
            throw new IllegalStateException();
        }

        @Override
        public long sequence() {
            throw new IllegalStateException();
        }

        @Override
        public int kind() {
            throw new IllegalStateException();
        }

        @Override
        public byte[] value() {
            throw new IllegalStateException();
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    private static FileMeta table(long number) {
        return new FileMeta(number, 100, new byte[] {1}, 1, new byte[] {2}, 1, 1, 1);
    }

    @Test
    void aFailedOpenClosesOnlyWhatThisCallAppended() {
        Source src = new Source(3);
        List<InternalIterator> out = new ArrayList<>();
        Empty earlier = new Empty();
        out.add(earlier);
        IOException e = assertThrows(IOException.class,
                () -> src.addIterators(List.of(table(1), table(2), table(3), table(4)), false, out));
        assertEquals("table 3 unreadable", e.getMessage());
        assertEquals(List.of(earlier), out);
        assertEquals(2, src.opened.size());
        assertTrue(src.opened.stream().allMatch(i -> i.closed));
        assertFalse(earlier.closed);
    }

    @Test
    void allTablesAreAppendedInOrder() throws IOException {
        Source src = new Source(-1);
        List<InternalIterator> out = new ArrayList<>();
        src.addIterators(List.of(table(1), table(2)), true, out);
        assertEquals(new ArrayList<>(src.opened), out);
    }
}
