package dev.voiceagent.application.voice.runtime.session;

/** The call loop's timers, closed without ceremony. */
final class Timers {

    private Timers() {
    }

    /** Stops a timer of the call's loop (null: none was started). */
    static void close(AutoCloseable timer) {
        try {
            if (timer != null) {
                timer.close();
            }
        } catch (Exception ignored) {
            // a loop's timer: nothing to release
        }
    }
}
