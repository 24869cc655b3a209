package io.bellows.engine.internal.memstore;

import java.util.Iterator;

/** A segment whose cells can be read as cells, so merges and compactions move them without copying bytes. */
interface CellSource {
    /** All cells in internal-key order. */
    Iterator<Cell> cells();
}
