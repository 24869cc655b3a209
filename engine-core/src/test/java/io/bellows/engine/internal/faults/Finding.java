package io.bellows.engine.internal.faults;

/** Something a fault run found wrong. */
record Finding(Kind kind, String detail) {
    /** What went wrong. */
    enum Kind {
        /** An acknowledged write is missing after the reopen, or an older value came back. */
        LOST_ACKED,
        /** A key holds a value no write ever gave it. */
        GARBAGE,
        /** The running engine returned a value the model does not allow. */
        WRONG_READ,
        /** The reopen on a healthy file system failed. */
        REOPEN_FAILED,
        /** An open during the workload kept failing after the faults were spent. */
        OPEN_RETRY_FAILED,
        /** A call or the engine's background work did not finish in time. */
        HANG,
        /** After the reopen's sweep the directory holds a file the live state does not reference. */
        LEAKED_FILE,
        /** A file opened through the file system was never closed, though every engine closed. */
        LEAKED_HANDLE,
        /** A file the live state references is missing. */
        MISSING_FILE,
        /** An API call threw something other than EngineIOException. */
        UNEXPECTED_EXCEPTION
    }

    @Override
    public String toString() {
        return kind + ": " + detail;
    }
}
