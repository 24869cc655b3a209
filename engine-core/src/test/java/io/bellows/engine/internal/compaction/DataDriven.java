package io.bellows.engine.internal.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Pebble-style data-driven tests: a file of cases, each a command line with arguments, input lines, a
 * {@code ----} line and the expected output, which ends at a blank line. Lines starting with {@code #}
 * between cases are comments. A case whose output differs fails with the file, the line and both texts.
 */
public final class DataDriven {
    /** One case: {@code cmd} and its {@code args} (words after it), the input lines, where it starts. */
    public record Case(String cmd, List<String> args, List<String> input, String expected, String file, int line) {
        /** The value of argument {@code name=value}, or {@code dflt}. */
        public String arg(String name, String dflt) {
            for (String a : args) {
                if (a.startsWith(name + "=")) {
                    return a.substring(name.length() + 1);
                }
            }
            return dflt;
        }
    }

    /** Runs a case and returns its output. */
    public interface Runner {
        String run(Case c) throws Exception;
    }

    private DataDriven() {}

    /** Runs every case of the class-path resource {@code resource} through {@code runner}, in order. */
    public static int run(String resource, Runner runner) throws Exception {
        List<Case> cases = parse(resource);
        for (Case c : cases) {
            String actual = runner.run(c).strip();
            assertEquals(c.expected(), actual, c.file() + ":" + c.line() + ": " + c.cmd() + " " + String.join(" ", c.args()));
        }
        return cases.size();
    }

    static List<Case> parse(String resource) throws IOException {
        String text;
        try (InputStream in = DataDriven.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IOException("no test data " + resource);
            }
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        String[] lines = text.split("\n", -1);
        List<Case> out = new ArrayList<>();
        int i = 0;
        while (i < lines.length) {
            String l = lines[i].strip();
            if (l.isEmpty() || l.startsWith("#")) {
                i++;
                continue;
            }
            int start = i + 1;
            List<String> words = Arrays.asList(l.split("\\s+"));
            List<String> input = new ArrayList<>();
            i++;
            while (i < lines.length && !lines[i].strip().equals("----")) {
                input.add(lines[i].strip());
                i++;
            }
            if (i == lines.length) {
                throw new IOException(resource + ":" + start + ": case without ----");
            }
            i++;
            StringBuilder expected = new StringBuilder();
            while (i < lines.length && !lines[i].strip().isEmpty()) {
                expected.append(lines[i].strip()).append('\n');
                i++;
            }
            out.add(new Case(words.get(0), words.subList(1, words.size()), input, expected.toString().strip(), resource,
                    start));
        }
        return out;
    }
}
