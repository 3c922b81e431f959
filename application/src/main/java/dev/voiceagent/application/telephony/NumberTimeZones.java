package dev.voiceagent.application.telephony;

import java.time.ZoneId;
import java.util.List;

/** Out-port: the time zones a public telephone number (E.164) may be in; empty when the number says nothing. */
public interface NumberTimeZones {

    List<ZoneId> zonesOf(String e164);
}
