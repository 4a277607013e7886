package dev.orderpipeline.api.security;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Strings made of random pieces, the same ones for a seed: inputs on which two checks of one rule must agree. */
final class TextSamples {

    private TextSamples() {}

    static List<String> of(long seed, int count, int maxPieces, List<String> pieces) {
        var random = new Random(seed);
        var samples = new ArrayList<String>(count);
        for (var n = 0; n < count; n++) {
            var text = new StringBuilder();
            var length = random.nextInt(maxPieces + 1);
            for (var i = 0; i < length; i++) {
                text.append(pieces.get(random.nextInt(pieces.size())));
            }
            samples.add(text.toString());
        }
        return samples;
    }
}
