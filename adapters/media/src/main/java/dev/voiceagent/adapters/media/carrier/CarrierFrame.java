package dev.voiceagent.adapters.media.carrier;

/** One message to the carrier: a text frame (JSON on most carriers, a command line on Asterisk) or a binary one. */
public sealed interface CarrierFrame {

    record Text(String text) implements CarrierFrame {
    }

    /** Raw bytes (the agent's audio on carriers that take it unencoded: Vonage, Asterisk). */
    record Binary(byte[] bytes) implements CarrierFrame {
    }
}
