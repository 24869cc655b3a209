package io.bellows.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import com.fasterxml.jackson.databind.ser.std.ToStringSerializer;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HexFormat;
import picocli.CommandLine.Option;

/** The options every command shares: JSON or text, and how keys and values are shown. */
final class Output {
    @Option(names = "--json", description = "Print one JSON document instead of text.")
    boolean json;

    @Option(names = "--hex", description = "Show every key and value as hex (default: UTF-8 when printable).")
    boolean hex;

    /** A key or value as text: itself when printable ASCII (and --hex is off), else 0x and its hex digits. */
    String bytes(byte[] b) {
        if (b == null) {
            return null;
        }
        if (!hex) {
            boolean printable = true;
            for (byte x : b) {
                printable &= x >= 0x20 && x < 0x7f;
            }
            if (printable) {
                return new String(b, StandardCharsets.US_ASCII);
            }
        }
        return "0x" + HexFormat.of().formatHex(b);
    }

    /** Writes {@code document} (records, maps, lists) with keys and values as {@link #bytes} and paths as text. */
    void printJson(PrintWriter out, Object document) {
        SimpleModule shown = new SimpleModule()
                .addSerializer(byte[].class, new StdSerializer<byte[]>(byte[].class) {
                    @Override
                    public void serialize(byte[] b, JsonGenerator g, SerializerProvider p) throws IOException {
                        g.writeString(bytes(b));
                    }
                })
                .addSerializer(Path.class, new ToStringSerializer(Path.class));
        ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).registerModule(shown);
        try {
            out.println(json.writeValueAsString(document));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write JSON: " + e.getMessage(), e);
        }
        out.flush();
    }
}
