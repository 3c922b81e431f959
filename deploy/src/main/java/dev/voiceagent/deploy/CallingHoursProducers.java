package dev.voiceagent.deploy;

import dev.voiceagent.application.calling.CallingHoursRepository;
import dev.voiceagent.application.calling.CallingHoursService;
import dev.voiceagent.application.campaign.CampaignRepository;
import dev.voiceagent.domain.calling.CallingHours;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Clock;

/** Legal calling hours: the installation's default ("HH:MM-HH:MM", 08:00-21:00) and the use cases. */
@ApplicationScoped
public class CallingHoursProducers {

    static CallingHours parse(String window) {
        String[] parts = window.strip().split("-");
        if (parts.length != 2) {
            throw new IllegalStateException("voiceagent.calling-hours.default must be HH:MM-HH:MM: " + window);
        }
        return CallingHours.parse(parts[0], parts[1]);
    }

    @Produces
    @Singleton
    CallingHoursService callingHours(CallingHoursRepository hours, CampaignRepository campaigns, Clock clock,
            VoiceAgentConfig config) {
        return new CallingHoursService(hours, campaigns, clock, parse(config.callingHours().window()));
    }
}
