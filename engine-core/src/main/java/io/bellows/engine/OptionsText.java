package io.bellows.engine;

import java.util.List;

/** The one-line text of {@link EngineOptions#toString()}: every option, the scheme's own included. */
final class OptionsText {
    private OptionsText() {}

    static String of(EngineOptions o, List<Compression> compression, Compression bottommost) {
        CompactionOptions c = o.compactionOptions();
        return "EngineOptions{compaction=" + o.compaction() + ", inMemoryCompaction=" + o.inMemoryCompaction()
                + ", memstoreSize=" + o.memstoreSize() + ", maxValueLength=" + o.maxValueLength()
                + ", blockSize=" + o.blockSize() + ", bloomBitsPerKey=" + o.bloomBitsPerKey() + ", compression="
                + compression + "/" + bottommost
                + ", blockCacheSize=" + o.blockCacheSize()
                + (o.sharedCache() != null ? ", sharedCache=" + o.sharedCache() : "")
                + (o.writeBufferManager() != null ? ", writeBufferManager=" + o.writeBufferManager() : "")
                + ", targetFileSize=" + o.targetFileSize()
                + ", maxBytesForLevelBase=" + o.maxBytesForLevelBase() + ", levelSizeMultiplier="
                + o.levelSizeMultiplier() + ", numLevels=" + o.numLevels() + ", l0=" + o.l0CompactionTrigger() + "/"
                + o.l0SlowdownTrigger() + "/" + o.l0StopTrigger() + ", pendingCompactionBytes="
                + o.softPendingCompactionBytesLimit() + "/" + o.hardPendingCompactionBytesLimit()
                + ", walSyncInterval=" + o.walSyncInterval() + ", walRecoveryMode=" + o.walRecoveryMode()
                + ", directIo=" + o.directIo() + ", backgroundThreads=" + o.backgroundThreads()
                + (o.preloadTableThreads() > 0 ? ", preloadTables=" + o.preloadTableThreads() : "")
                + (c instanceof FlsmOptions f ? ", flsm=" + f.topLevelBits() + "/" + f.bitDecrement()
                        + "/" + f.maxTablesPerGuard() + "/" + f.guardMaxBytes() + "/" + f.guardMinBytes() + "/"
                        + f.seekCompactionThreshold() + (f.parallelSeeks() ? "/parallel-seeks" : "") : "")
                + (c instanceof PtierOptions p ? ", " + p : "")
                + ", activeSegmentFraction=" + o.activeSegmentFraction() + ", pipelineSegments="
                + o.pipelineSegments() + ", adaptiveThreshold=" + o.adaptiveThreshold() + ", mslab=" + o.mslab()
                + ", mslabChunkSize=" + o.mslabChunkSize() + ", memoryLayout=" + o.memoryLayout()
                + (o.offHeapLimit() > 0 ? ", offHeapLimit=" + o.offHeapLimit() : "")
                + (o.traceFile() != null ? ", trace=" + o.traceFile() + "/" + o.traceOptions() : "")
                + (c instanceof TrieOptions t ? ", trie{depth=" + t.depth() + ", piles="
                        + t.pileTrigger() + "/" + t.pileSlowdown() + "/" + t.pileStop() + ", buckets="
                        + t.tableBuckets() + (t.tableBucketsSet() ? "" : " or the store's") + ", bloomBits="
                        + t.bloomBitsPerKey() + ", filterCache="
                        + t.filterCacheSize() + ", gcRatio=" + t.gcGarbageRatio() + "}" : "")
                + (c instanceof TriadOptions t ? ", " + t : "") + "}";
    }
}
