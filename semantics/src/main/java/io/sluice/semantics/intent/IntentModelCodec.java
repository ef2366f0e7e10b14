package io.sluice.semantics.intent;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

import io.sluice.semantics.model.ModelCodec;

/** The stored form of an {@link IntentModel}: a small versioned binary layout (no Java serialisation). */
public final class IntentModelCodec implements ModelCodec<IntentModel> {

    private static final int MAGIC = 0x534c494d; // "SLIM"
    private static final int FORMAT = 1;

    public byte[] encode(IntentModel model) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(MAGIC);
            out.writeInt(FORMAT);
            out.writeUTF(model.embedder());
            out.writeDouble(model.temperature());
            out.writeDouble(model.minConfidence());
            out.writeDouble(model.sFloor());
            int classes = model.keys().size();
            int width = model.weights()[0].length;
            out.writeInt(classes);
            out.writeInt(width);
            for (int c = 0; c < classes; c++) {
                out.writeUTF(model.keys().get(c));
                out.writeUTF(model.priorities().get(c));
                for (float w : model.weights()[c]) {
                    out.writeFloat(w);
                }
            }
            out.writeInt(model.heldOut().size());
            for (LabelledText t : model.heldOut()) {
                writeLong(out, t.text());
                out.writeUTF(t.intent());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    @Override
    public IntentModel decode(byte[] payload) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(payload))) {
            if (in.readInt() != MAGIC || in.readInt() != FORMAT) {
                throw new IllegalArgumentException("not an intent model (format " + FORMAT + ")");
            }
            String embedder = in.readUTF();
            double temperature = in.readDouble();
            double minConfidence = in.readDouble();
            double sFloor = in.readDouble();
            int classes = in.readInt();
            int width = in.readInt();
            if (classes < 1 || classes > 10_000 || width < 2 || width > 100_000) {
                throw new IllegalArgumentException("intent model: implausible size");
            }
            List<String> keys = new ArrayList<>();
            List<String> priorities = new ArrayList<>();
            float[][] weights = new float[classes][width];
            for (int c = 0; c < classes; c++) {
                keys.add(in.readUTF());
                priorities.add(IntentDefinition.requirePriority(in.readUTF()));
                for (int i = 0; i < width; i++) {
                    weights[c][i] = in.readFloat();
                }
            }
            int held = in.readInt();
            List<LabelledText> heldOut = new ArrayList<>();
            for (int i = 0; i < held; i++) {
                heldOut.add(new LabelledText(readLong(in), in.readUTF()));
            }
            return new IntentModel(keys, priorities, weights, temperature, minConfidence, sFloor, embedder, heldOut);
        } catch (IOException e) {
            throw new IllegalArgumentException("intent model: truncated payload");
        }
    }

    private static void writeLong(DataOutputStream out, String text) throws IOException {
        byte[] utf8 = text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        out.writeInt(utf8.length);
        out.write(utf8);
    }

    private static String readLong(DataInputStream in) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > 1_000_000) {
            throw new IOException("bad length");
        }
        return new String(in.readNBytes(n), java.nio.charset.StandardCharsets.UTF_8);
    }
}
