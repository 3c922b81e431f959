package dev.voiceagent.adapters.outbound.speech;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.function.Consumer;

/**
 * The caller's audio a streaming recognizer has not settled yet, kept so that a socket opened again (after a drop or a
 * gap) hears it first: the line said across a drop is transcribed once, on the new socket, and what a final already
 * settled is not sent again. Positions are bytes of the call's audio since the stream began; a socket's audio starts
 * where the kept audio started when it opened, so a provider's times on its socket map back to the call's audio
 * ({@link #onSocket}). Also where the caller stopped when a finalize (Deepgram's Finalize, AssemblyAI's ForceEndpoint,
 * ...) was asked for that no final answered yet, so a socket opened again is asked again at the same place.
 *
 * <p>Not thread-safe: its owner (a {@link ProviderSocket}) calls it under its own lock.
 */
final class UnsettledAudio {

    /** The kept chunks, oldest first, from {@link #from}, as they were (or will be) sent. */
    private final Deque<byte[]> chunks = new ArrayDeque<>();
    private long from;
    private long bytes;
    /** Where the current socket's audio began, and how far it was sent. */
    private long socketFrom;
    private long sent;
    /** Where the caller stopped when a finalize was asked for that no final answered yet; -1: none. */
    private long finalizeAt = -1;

    /**
     * Keeps a chunk of the caller's audio (to be sent on the open socket, if any: then {@link #sent}); the oldest are
     * forgotten while more than {@code keepBytes} is kept (the newest chunk always stays): what a new socket need not
     * hear again, or could not (too long unsettled).
     */
    void keep(byte[] chunk, long keepBytes) {
        chunks.addLast(chunk);
        bytes += chunk.length;
        while (bytes > keepBytes && chunks.size() > 1) {
            forgetOldest();
        }
    }

    /** A chunk kept was written on the open socket. */
    void sent(int length) {
        sent += length;
    }

    /** A socket opened: its audio starts at the oldest chunk kept, nothing of it sent yet. */
    void opened() {
        socketFrom = from;
        sent = from;
    }

    /**
     * A socket opened ({@link #opened}): each chunk goes to {@code audio}, oldest first, and the finalize no final
     * answered yet to {@code finalize} at its place among them.
     */
    void replay(Consumer<byte[]> audio, Runnable finalize) {
        opened();
        boolean finalizing = finalizeAt >= 0;
        for (byte[] chunk : chunks) {
            if (finalizing && sent >= finalizeAt) {
                finalize.run();
                finalizing = false;
            }
            audio.accept(chunk);
            sent += chunk.length;
        }
        if (finalizing) {
            finalize.run();
        }
    }

    /** A position on the current socket's audio ({@code bytes} since it opened) as a position on the call's audio. */
    long onSocket(long bytesOnSocket) {
        return socketFrom + bytesOnSocket;
    }

    /** How far the kept audio was sent on the current socket: a place for {@link #settle}. */
    long sentUpTo() {
        return sent;
    }

    /** A final came: the audio up to {@code at} (all sent when -1) is settled, forgotten. */
    void settle(long at) {
        long upTo = at < 0 ? sent : Math.min(at, sent);
        while (!chunks.isEmpty() && from + chunks.peekFirst().length <= upTo) {
            forgetOldest();
        }
    }

    /** The caller stopped: a finalize is asked for at the end of the audio kept. */
    void finalizeAsked() {
        finalizeAt = from + bytes;
    }

    /** Whether a finalize was asked for that no final answered yet. */
    boolean finalizing() {
        return finalizeAt >= 0;
    }

    /** A final answered the finalize asked for (if any). */
    void finalizeAnswered() {
        finalizeAt = -1;
    }

    /** A final answered the finalize asked for (if any): the audio up to where it was asked is settled too. */
    void settleFinalized() {
        if (finalizeAt >= 0) {
            settle(finalizeAt);
            finalizeAt = -1;
        }
    }

    /** A finalize asked for before the oldest audio kept is forgotten: there is no turn left for it to end. */
    void forgetStaleFinalize() {
        if (finalizeAt >= 0 && finalizeAt < from) {
            finalizeAt = -1;
        }
    }

    /** Forgets everything kept and the finalize asked for: a new socket hears the call from now on. */
    void clear() {
        while (!chunks.isEmpty()) {
            forgetOldest();
        }
        finalizeAt = -1;
    }

    private void forgetOldest() {
        byte[] chunk = chunks.pollFirst();
        from += chunk.length;
        bytes -= chunk.length;
        sent = Math.max(sent, from);
    }
}
