package dev.voiceagent.application.calling;

import dev.voiceagent.application.calling.CallingHoursUseCases.CampaignCallingHours;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.application.campaign.CampaignRepository;
import dev.voiceagent.application.shared.ResourceNotFoundException;
import dev.voiceagent.domain.calling.CallingHours;
import dev.voiceagent.domain.campaign.CampaignLogEntry;
import dev.voiceagent.domain.campaign.LogLevel;
import dev.voiceagent.domain.shared.DomainRuleViolation;
import io.smallrye.mutiny.Uni;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;

/** A campaign is found first (another organization's is a 404); every change of its hours is in its log. */
public class CallingHoursService implements CallingHoursUseCases.GetOrganizationCallingHoursUseCase,
        CallingHoursUseCases.SetOrganizationCallingHoursUseCase, CallingHoursUseCases.GetCampaignCallingHoursUseCase,
        CallingHoursUseCases.SetCampaignCallingHoursUseCase, CallingHoursUseCases.ClearCampaignCallingHoursUseCase {

    private final CallingHoursRepository hours;
    private final CampaignRepository campaigns;
    private final Clock clock;
    private final CallingHours installationDefault;

    public CallingHoursService(CallingHoursRepository hours, CampaignRepository campaigns, Clock clock,
            CallingHours installationDefault) {
        this.installationDefault = installationDefault;
        this.hours = hours;
        this.campaigns = campaigns;
        this.clock = clock;
    }

    @Override
    public Uni<CallingHours> organization(Principal principal) {
        return organization(principal.organizationId());
    }

    private Uni<CallingHours> organization(long org) {
        return hours.organization(org).map(own -> own.orElse(installationDefault));
    }

    @Override
    public Uni<CallingHours> setOrganization(Principal principal, CallingHours window) {
        return hours.setOrganization(principal.organizationId(), window).replaceWith(window);
    }

    @Override
    public Uni<CampaignCallingHours> campaign(Principal principal, long campaignId) {
        long org = principal.organizationId();
        return found(org, campaignId).chain(() -> read(org, campaignId));
    }

    @Override
    public Uni<CampaignCallingHours> setCampaign(Principal principal, long campaignId, CallingHours window,
            String overrideReason) {
        long org = principal.organizationId();
        String reason = overrideReason == null || overrideReason.isBlank() ? null : overrideReason.strip();
        return found(org, campaignId).chain(() -> organization(org)).chain(organization -> {
            boolean widens = !organization.contains(window);
            if (widens && reason == null) {
                throw new DomainRuleViolation("These hours (" + window.startText() + "-" + window.endText()
                        + ") widen the organization's calling hours (" + organization.startText() + "-"
                        + organization.endText() + "): an override_reason is required");
            }
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("start", window.startText());
            details.put("end", window.endText());
            details.put("organization_start", organization.startText());
            details.put("organization_end", organization.endText());
            CampaignLogEntry entry = widens
                    ? new CampaignLogEntry(clock.instant(), LogLevel.WARNING, "calling_hours_override",
                            "Calling hours widened to " + window.startText() + "-" + window.endText()
                                    + " beyond the organization's " + organization.startText() + "-"
                                    + organization.endText() + ": " + reason, with(details, "override_reason", reason))
                    : new CampaignLogEntry(clock.instant(), LogLevel.INFO, "calling_hours_changed",
                            "Calling hours narrowed to " + window.startText() + "-" + window.endText(), details);
            return hours.setCampaign(org, campaignId, new CallingHoursRepository.CampaignHours(window,
                            widens ? reason : null))
                    .chain(() -> campaigns.appendLog(org, campaignId, entry))
                    .chain(() -> read(org, campaignId));
        });
    }

    @Override
    public Uni<CampaignCallingHours> clearCampaign(Principal principal, long campaignId) {
        long org = principal.organizationId();
        return found(org, campaignId).chain(() -> hours.clearCampaign(org, campaignId)).chain(cleared -> cleared
                ? campaigns.appendLog(org, campaignId, new CampaignLogEntry(clock.instant(), LogLevel.INFO,
                        "calling_hours_changed", "Calling hours back to the organization's", null))
                : Uni.createFrom().voidItem()).chain(() -> read(org, campaignId));
    }

    private Uni<CampaignCallingHours> read(long org, long campaignId) {
        return Uni.combine().all().unis(organization(org), hours.campaign(org, campaignId)).asTuple()
                .map(t -> new CampaignCallingHours(t.getItem1(),
                        t.getItem2().map(CallingHoursRepository.CampaignHours::hours).orElse(null),
                        t.getItem2().map(CallingHoursRepository.CampaignHours::overrideReason).orElse(null)));
    }

    private Uni<Void> found(long org, long campaignId) {
        return campaigns.findView(org, campaignId).invoke(view -> {
            if (view.isEmpty()) {
                throw new ResourceNotFoundException("Campaign not found");
            }
        }).replaceWithVoid();
    }

    private static Map<String, Object> with(Map<String, Object> details, String key, Object value) {
        details.put(key, value);
        return details;
    }
}
