package dev.voiceagent.application.telephony;

import dev.voiceagent.domain.telephony.OutboundReadinessPolicy;
import dev.voiceagent.domain.telephony.SetupStep;
import java.util.List;

/** One configuration as its own page shows it: the view, its set-up checklist and its trunks (if it has any). */
public record TelephonyConfigurationDetails(TelephonyConfigurationView view, List<TrunkView> trunks) {

    public TelephonyConfigurationDetails {
        trunks = List.copyOf(trunks);
    }

    public List<SetupStep> checklist() {
        var c = view.configuration();
        return OutboundReadinessPolicy.checklist(c.configuration(), c.active(), view.activeNumbers());
    }
}
