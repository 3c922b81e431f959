package dev.voiceagent.adapters.telephony;

import com.google.i18n.phonenumbers.NumberParseException;
import com.google.i18n.phonenumbers.PhoneNumberUtil;
import com.google.i18n.phonenumbers.Phonenumber.PhoneNumber;
import dev.voiceagent.application.telephony.PhoneNumberNormalizer;
import dev.voiceagent.domain.shared.DomainRuleViolation;
import dev.voiceagent.domain.telephony.Provider;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Google's libphonenumber for the public network. Numbers to call (contacts, test calls) must be
 * valid for their country (the simulator accepts any possible number, so made-up test numbers work
 * on a laptop); the organization's own caller numbers need only be possible (the reference checks
 * the digits' shape only: a newly assigned range libphonenumber does not know yet must not be
 * refused), and {@link #assigned} says which of them the numbering plan does not know.
 */
@ApplicationScoped
public class LibPhoneNumberNormalizer implements PhoneNumberNormalizer {

    private static final PhoneNumberUtil PHONES = PhoneNumberUtil.getInstance();
    private static final Pattern SIP_URI = Pattern.compile("(?i)sips?:[^@\\s]+@[A-Za-z0-9.-]+(:\\d{1,5})?(;[^\\s]*)?");
    private static final Pattern SEPARATORS = Pattern.compile("[\\s().\\-/]");
    private static final Pattern EXTENSION = Pattern.compile("[0-9*#]{1,15}");
    private static final Pattern DIAL_STRING = Pattern.compile("[A-Za-z]+/[^\\s]+");
    private static final Pattern REGION = Pattern.compile("[A-Za-z]{2}");

    @Override
    public String normalize(String address, String countryCode, Provider provider) {
        return normalize(address, countryCode, provider, provider != Provider.SIMULATOR, provider == Provider.ARI);
    }

    @Override
    public String normalizeCaller(String address, String countryCode, Provider provider) {
        return normalize(address, countryCode, provider, false, provider.supportsTrunks());
    }

    @Override
    public boolean assigned(String normalized) {
        if (normalized == null || !normalized.startsWith("+")) {
            return true; // SIP URIs, extensions: not the public network's numbering plan
        }
        try {
            return PHONES.isValidNumber(PHONES.parse(normalized, null));
        } catch (NumberParseException e) {
            return false;
        }
    }

    private String normalize(String address, String countryCode, Provider provider, boolean mustBeValid,
            boolean extensions) {
        String raw = address == null ? "" : address.strip();
        if (raw.isEmpty()) {
            throw new DomainRuleViolation("The phone number is empty");
        }
        if (raw.regionMatches(true, 0, "sip:", 0, 4) || raw.regionMatches(true, 0, "sips:", 0, 5)) {
            if (!SIP_URI.matcher(raw).matches()) {
                throw new DomainRuleViolation("'" + raw + "' is not a valid SIP URI (sip:user@host)");
            }
            int colon = raw.indexOf(':');
            return raw.substring(0, colon).toLowerCase(Locale.ROOT) + raw.substring(colon);
        }
        if (extensions && !raw.startsWith("+") && (provider == Provider.ARI || countryCode == null || countryCode.isBlank())) {
            if (EXTENSION.matcher(raw).matches() || DIAL_STRING.matcher(raw).matches()) {
                return raw;
            }
            throw new DomainRuleViolation("'" + raw + "' is not an E.164 number, extension or dial string");
        }
        String digits = SEPARATORS.matcher(raw).replaceAll("");
        if (digits.startsWith("00")) {
            digits = "+" + digits.substring(2);
        }
        PhoneNumber number = parse(raw, digits, countryCode);
        boolean acceptable = mustBeValid ? PHONES.isValidNumber(number) : PHONES.isPossibleNumber(number);
        if (!acceptable) {
            throw new DomainRuleViolation("'" + raw + "' is not a valid phone number");
        }
        return PHONES.format(number, PhoneNumberUtil.PhoneNumberFormat.E164);
    }

    private static PhoneNumber parse(String raw, String digits, String countryCode) {
        try {
            if (digits.startsWith("+")) {
                return PHONES.parse(digits, null);
            }
            String region = region(countryCode);
            if (region == null) {
                throw new DomainRuleViolation("'" + raw + "' has no country code: start it with + or give country_code");
            }
            return PHONES.parse(digits, region);
        } catch (NumberParseException e) {
            throw new DomainRuleViolation("'" + raw + "' is not a valid phone number");
        }
    }

    /** "US" or "us" -> US; "1" or "+44" -> the main region of that calling code. */
    private static String region(String countryCode) {
        if (countryCode == null || countryCode.isBlank()) {
            return null;
        }
        String code = countryCode.strip();
        if (REGION.matcher(code).matches()) {
            String region = code.toUpperCase(Locale.ROOT);
            if (!PHONES.getSupportedRegions().contains(region)) {
                throw new DomainRuleViolation("Unknown country code '" + countryCode + "'");
            }
            return region;
        }
        try {
            String region = PHONES.getRegionCodeForCountryCode(Integer.parseInt(code.startsWith("+") ? code.substring(1) : code));
            if ("ZZ".equals(region)) {
                throw new DomainRuleViolation("Unknown country code '" + countryCode + "'");
            }
            return region;
        } catch (NumberFormatException e) {
            throw new DomainRuleViolation("Unknown country code '" + countryCode + "'");
        }
    }
}
