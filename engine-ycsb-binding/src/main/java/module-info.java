/** The YCSB binding: a {@code site.ycsb.DB} that drives Bellows. */
module io.bellows.ycsb {
    requires io.bellows.engine;
    requires core;

    exports io.bellows.ycsb;
}
