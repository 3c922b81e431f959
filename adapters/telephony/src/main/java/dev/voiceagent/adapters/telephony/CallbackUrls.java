package dev.voiceagent.adapters.telephony;

/** The public base URL providers send reports to, without a trailing slash. */
public final class CallbackUrls {

    private CallbackUrls() {
    }

    public static String base(String configured) {
        return configured.endsWith("/") ? configured.substring(0, configured.length() - 1) : configured;
    }
}
