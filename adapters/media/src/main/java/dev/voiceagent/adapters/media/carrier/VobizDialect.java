package dev.voiceagent.adapters.media.carrier;

/**
 * Vobiz's audio streams: Plivo's protocol ({@link PlivoDialect}: start, media, dtmf, playedStream and clearedAudio in;
 * playAudio, checkpoint and clearAudio out), μ-law at 8 kHz as its {@code <Stream>} XML asks.
 */
public final class VobizDialect extends PlivoDialect {

    public VobizDialect() {
        super("Vobiz");
    }
}
