package dev.voiceagent.adapters.telephony.vobiz;

import dev.voiceagent.adapters.telephony.plivo.PlivoFamily;
import dev.voiceagent.adapters.telephony.plivo.PlivoFamilyResource;
import dev.voiceagent.adapters.telephony.plivo.PlivoWebhooks;
import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.Path;

/** Vobiz's webhooks ({@link PlivoFamilyResource}): Plivo's, signed with X-Vobiz-Signature-V3 (or V2). */
@Path("/api/v1/telephony/vobiz")
@PermitAll
public class VobizResource extends PlivoFamilyResource {

    public VobizResource(PlivoWebhooks webhooks) {
        super(webhooks, PlivoFamily.VOBIZ);
    }
}
