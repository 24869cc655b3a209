package io.bellows.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The little JSON the result files need, written and read without a library: objects are
 * {@code Map<String, Object>} (insertion order kept), arrays {@code List<Object>}, numbers Long when
 * integral in the text and Double otherwise, plus String, Boolean and null. Writing also takes
 * {@code double[]}, {@code long[]} and {@code int[]}; a non-finite double is written as null.
 */
final class Json {
    private Json() {}

    static String write(Object value) {
        StringBuilder sb = new StringBuilder();
        write(value, sb, 0);
        return sb.append('\n').toString();
    }

    private static void write(Object v, StringBuilder sb, int indent) {
        if (v == null) {
            sb.append("null");
        } else if (v instanceof String) {
            string((String) v, sb);
        } else if (v instanceof Boolean || v instanceof Long || v instanceof Integer) {
            sb.append(v);
        } else if (v instanceof Double || v instanceof Float) {
            number(((Number) v).doubleValue(), sb);
        } else if (v instanceof double[]) {
            double[] a = (double[]) v;
            sb.append('[');
            for (int i = 0; i < a.length; i++) {
                sb.append(i == 0 ? "" : ",");
                number(a[i], sb);
            }
            sb.append(']');
        } else if (v instanceof long[]) {
            sb.append(java.util.Arrays.toString((long[]) v).replace(" ", ""));
        } else if (v instanceof int[]) {
            sb.append(java.util.Arrays.toString((int[]) v).replace(" ", ""));
        } else if (v instanceof Map) {
            Map<?, ?> m = (Map<?, ?>) v;
            sb.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : m.entrySet()) {
                sb.append(first ? "\n" : ",\n").append("  ".repeat(indent + 1));
                string(e.getKey().toString(), sb);
                sb.append(": ");
                write(e.getValue(), sb, indent + 1);
                first = false;
            }
            sb.append(first ? "" : "\n" + "  ".repeat(indent)).append('}');
        } else if (v instanceof List) {
            List<?> l = (List<?>) v;
            sb.append('[');
            for (int i = 0; i < l.size(); i++) {
                sb.append(i == 0 ? "\n" : ",\n").append("  ".repeat(indent + 1));
                write(l.get(i), sb, indent + 1);
            }
            sb.append(l.isEmpty() ? "" : "\n" + "  ".repeat(indent)).append(']');
        } else {
            throw new IllegalArgumentException("cannot write " + v.getClass() + " as JSON");
        }
    }

    private static void number(double d, StringBuilder sb) {
        if (Double.isFinite(d)) {
            sb.append(d == Math.rint(d) && Math.abs(d) < 1e15 ? String.format(Locale.ROOT, "%.1f", d)
                    : Double.toString(d));
        } else {
            sb.append("null");
        }
    }

    private static void string(String s, StringBuilder sb) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"':
                    sb.append("\\\"");
                    break;
                case '\\':
                    sb.append("\\\\");
                    break;
                case '\n':
                    sb.append("\\n");
                    break;
                case '\r':
                    sb.append("\\r");
                    break;
                case '\t':
                    sb.append("\\t");
                    break;
                default:
                    if (c < 0x20) {
                        sb.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
            }
        }
        sb.append('"');
    }

    static Object parse(String text) {
        Reader r = new Reader(text);
        Object v = r.value();
        r.skipSpace();
        if (r.pos != text.length()) {
            throw r.error("trailing characters");
        }
        return v;
    }

    /** A recursive-descent reader over the whole text. */
    private static final class Reader {
        private final String s;
        private int pos;

        Reader(String s) {
            this.s = s;
        }

        Object value() {
            skipSpace();
            if (pos >= s.length()) {
                throw error("unexpected end");
            }
            char c = s.charAt(pos);
            switch (c) {
                case '{':
                    return object();
                case '[':
                    return array();
                case '"':
                    return string();
                case 't':
                    return literal("true", Boolean.TRUE);
                case 'f':
                    return literal("false", Boolean.FALSE);
                case 'n':
                    return literal("null", null);
                default:
                    return number();
            }
        }

        private Map<String, Object> object() {
            Map<String, Object> m = new LinkedHashMap<>();
            pos++;
            skipSpace();
            if (peek() == '}') {
                pos++;
                return m;
            }
            while (true) {
                skipSpace();
                if (peek() != '"') {
                    throw error("expected a key");
                }
                String key = string();
                skipSpace();
                expect(':');
                m.put(key, value());
                skipSpace();
                if (peek() == ',') {
                    pos++;
                } else {
                    expect('}');
                    return m;
                }
            }
        }

        private List<Object> array() {
            List<Object> l = new ArrayList<>();
            pos++;
            skipSpace();
            if (peek() == ']') {
                pos++;
                return l;
            }
            while (true) {
                l.add(value());
                skipSpace();
                if (peek() == ',') {
                    pos++;
                } else {
                    expect(']');
                    return l;
                }
            }
        }

        private String string() {
            StringBuilder sb = new StringBuilder();
            pos++;
            while (true) {
                if (pos >= s.length()) {
                    throw error("unterminated string");
                }
                char c = s.charAt(pos++);
                if (c == '"') {
                    return sb.toString();
                }
                if (c != '\\') {
                    sb.append(c);
                    continue;
                }
                char e = s.charAt(pos++);
                switch (e) {
                    case 'n':
                        sb.append('\n');
                        break;
                    case 'r':
                        sb.append('\r');
                        break;
                    case 't':
                        sb.append('\t');
                        break;
                    case 'b':
                        sb.append('\b');
                        break;
                    case 'f':
                        sb.append('\f');
                        break;
                    case 'u':
                        sb.append((char) Integer.parseInt(s.substring(pos, pos + 4), 16));
                        pos += 4;
                        break;
                    default:
                        sb.append(e);
                }
            }
        }

        private Object number() {
            int start = pos;
            boolean integral = true;
            while (pos < s.length() && "+-0123456789.eE".indexOf(s.charAt(pos)) >= 0) {
                integral &= "eE.".indexOf(s.charAt(pos)) < 0;
                pos++;
            }
            String t = s.substring(start, pos);
            try {
                return integral ? (Object) Long.parseLong(t) : (Object) Double.parseDouble(t);
            } catch (NumberFormatException e) {
                throw error("bad number '" + t + "'");
            }
        }

        private Object literal(String word, Object value) {
            if (!s.startsWith(word, pos)) {
                throw error("expected " + word);
            }
            pos += word.length();
            return value;
        }

        private char peek() {
            return pos < s.length() ? s.charAt(pos) : '\0';
        }

        private void expect(char c) {
            if (peek() != c) {
                throw error("expected '" + c + "'");
            }
            pos++;
        }

        void skipSpace() {
            while (pos < s.length() && Character.isWhitespace(s.charAt(pos))) {
                pos++;
            }
        }

        IllegalArgumentException error(String what) {
            return new IllegalArgumentException("bad JSON at offset " + pos + ": " + what);
        }
    }
}
