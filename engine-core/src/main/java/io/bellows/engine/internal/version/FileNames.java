package io.bellows.engine.internal.version;

import java.nio.file.Path;

/** Names of the files in a store directory; numbers come from one counter in the manifest. */
public final class FileNames {
    public static final String CURRENT = "CURRENT";
    public static final String LOCK = "LOCK";
    public static final String MANIFEST_PREFIX = "MANIFEST-";
    public static final String LOG_SUFFIX = ".log";
    public static final String TABLE_SUFFIX = ".sst";
    public static final String TEMP_SUFFIX = ".tmp";
    /** A WAL file recovery found damaged, kept for inspection; nothing in the engine reads or deletes it. */
    public static final String CORRUPT_SUFFIX = ".corrupt";

    private FileNames() {}

    public static Path table(Path dir, long number) {
        return dir.resolve(String.format("%06d%s", number, TABLE_SUFFIX));
    }

    public static Path log(Path dir, long number) {
        return dir.resolve(String.format("%06d%s", number, LOG_SUFFIX));
    }

    public static Path corruptLog(Path dir, long number) {
        return dir.resolve(String.format("%06d%s%s", number, LOG_SUFFIX, CORRUPT_SUFFIX));
    }

    public static Path manifest(Path dir, long number) {
        return dir.resolve(String.format("%s%06d", MANIFEST_PREFIX, number));
    }

    /** The number of a table or log file name, or -1 if the name is not one. */
    public static long number(String name, String suffix) {
        if (!name.endsWith(suffix)) {
            return -1;
        }
        String digits = name.substring(0, name.length() - suffix.length());
        return parse(digits);
    }

    public static long manifestNumber(String name) {
        return name.startsWith(MANIFEST_PREFIX) ? parse(name.substring(MANIFEST_PREFIX.length())) : -1;
    }

    private static long parse(String digits) {
        if (digits.isEmpty() || digits.length() > 18) {
            return -1;
        }
        for (int i = 0; i < digits.length(); i++) {
            if (!Character.isDigit(digits.charAt(i))) {
                return -1;
            }
        }
        return Long.parseLong(digits);
    }
}
