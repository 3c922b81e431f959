package dev.voiceagent.adapters.telephony;

import com.google.i18n.phonenumbers.NumberParseException;
import com.google.i18n.phonenumbers.PhoneNumberToTimeZonesMapper;
import com.google.i18n.phonenumbers.PhoneNumberUtil;
import com.google.i18n.phonenumbers.Phonenumber.PhoneNumber;
import dev.voiceagent.application.telephony.NumberTimeZones;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;

/**
 * libphonenumber's time-zone mapper (the geocoder artifact): a geographic number gives its zone (+1 212 is New
 * York), a number that only names its country gives all of the country's zones, an unknown one none.
 */
@ApplicationScoped
public class LibPhoneNumberTimeZones implements NumberTimeZones {

    private static final PhoneNumberUtil PHONES = PhoneNumberUtil.getInstance();

    @Override
    public List<ZoneId> zonesOf(String e164) {
        if (e164 == null || !e164.startsWith("+")) {
            return List.of();
        }
        PhoneNumber number;
        try {
            number = PHONES.parse(e164, null);
        } catch (NumberParseException e) {
            return List.of();
        }
        List<ZoneId> zones = new ArrayList<>();
        for (String id : PhoneNumberToTimeZonesMapper.getInstance().getTimeZonesForNumber(number)) {
            if (!id.equals(PhoneNumberToTimeZonesMapper.getUnknownTimeZone())) {
                try {
                    zones.add(ZoneId.of(id));
                } catch (DateTimeException e) {
                    // a zone the JDK does not know (older tzdata): left out
                }
            }
        }
        return zones;
    }
}
