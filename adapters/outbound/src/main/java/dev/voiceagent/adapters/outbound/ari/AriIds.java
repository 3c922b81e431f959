package dev.voiceagent.adapters.outbound.ari;

import java.util.HexFormat;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The ids this service gives what it creates in Asterisk, so that any replica holding the events of a configuration
 * knows from an event alone which run a channel or bridge belongs to: a dialled call {@code va-<run>-<random>}, its
 * media channel {@code va-ext-<run>-<random>}, a transfer's destination {@code va-xfer-<run>-<random>}, the call's
 * bridge {@code va-bridge-<run>}. A channel Asterisk named itself (an inbound call) is not ours.
 */
final class AriIds {

    static final String CALL = "va-";
    static final String MEDIA = "va-ext-";
    static final String TRANSFER = "va-xfer-";
    static final String BRIDGE = "va-bridge-";

    private AriIds() {
    }

    private static String random() {
        byte[] bytes = new byte[6];
        ThreadLocalRandom.current().nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    static String call(long runId) {
        return CALL + runId + "-" + random();
    }

    static String media(long runId) {
        return MEDIA + runId + "-" + random();
    }

    static String transfer(long runId) {
        return TRANSFER + runId + "-" + random();
    }

    static String bridge(long runId) {
        return BRIDGE + runId;
    }

    enum Kind { CALL, MEDIA, TRANSFER, BRIDGE, OTHER }

    static Kind kind(String id) {
        if (id == null || !id.startsWith(CALL)) {
            return Kind.OTHER;
        }
        Kind kind = id.startsWith(MEDIA) ? Kind.MEDIA : id.startsWith(TRANSFER) ? Kind.TRANSFER
                : id.startsWith(BRIDGE) ? Kind.BRIDGE : Kind.CALL;
        return run(id).isPresent() ? kind : Kind.OTHER;
    }

    /** The run an id of ours names. */
    static Optional<Long> run(String id) {
        if (id == null || !id.startsWith(CALL)) {
            return Optional.empty();
        }
        String rest = id.startsWith(MEDIA) ? id.substring(MEDIA.length()) : id.startsWith(TRANSFER)
                ? id.substring(TRANSFER.length()) : id.startsWith(BRIDGE) ? id.substring(BRIDGE.length())
                : id.substring(CALL.length());
        int dash = rest.indexOf('-');
        String digits = dash < 0 ? rest : rest.substring(0, dash);
        if (digits.isEmpty() || digits.length() > 18 || !digits.chars().allMatch(Character::isDigit)) {
            return Optional.empty();
        }
        return Optional.of(Long.parseLong(digits));
    }
}
