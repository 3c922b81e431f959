package dev.voiceagent.adapters.telephony;

/**
 * Numbers as the carriers that write E.164 without its plus (Plivo, Vobiz, Vonage) take and give them.
 */
public final class CarrierNumbers {

    private CarrierNumbers() {
    }

    /** E.164 without the plus, for the carrier's API; a SIP address is left as it is. */
    public static String digits(String number) {
        String n = number.strip();
        return n.startsWith("+") ? n.substring(1) : n;
    }

    /** A carrier's E.164 digits with their plus; a SIP address or a national number (a leading 0) as it is. */
    public static String plus(String number) {
        if (number == null) {
            return null;
        }
        String n = number.strip();
        return !n.isEmpty() && !n.startsWith("0") && n.chars().allMatch(Character::isDigit) ? "+" + n : n;
    }
}
