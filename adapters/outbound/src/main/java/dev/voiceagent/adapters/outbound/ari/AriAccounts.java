package dev.voiceagent.adapters.outbound.ari;

import dev.voiceagent.application.shared.UpstreamServiceException;
import dev.voiceagent.domain.shared.DomainRuleViolation;
import dev.voiceagent.domain.telephony.ProviderConfiguration;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * An Asterisk configuration checked when saved: its ARI user asked for Asterisk's system information
 * ({@code GET /ari/asterisk/info}) at the endpoint, through the address guard. A 401 or 403 is the user or password
 * refused and a 404 no ARI at that address (a 400 naming the fields, nothing stored); an address the installation does
 * not allow is a 400 too; no answer or a 5xx is Asterisk unavailable (a 502). Off with the other carriers' checks
 * ({@code voiceagent.telephony.verify-credentials=false}).
 */
@ApplicationScoped
public class AriAccounts {

    private final AriRest rest;
    private final boolean enabled;

    public AriAccounts(AriCallGateway gateway,
            @ConfigProperty(name = "voiceagent.telephony.verify-credentials", defaultValue = "true") boolean enabled) {
        this.rest = gateway.rest();
        this.enabled = enabled;
    }

    public Uni<Void> verify(ProviderConfiguration.Ari ari) {
        if (!enabled) {
            return Uni.createFrom().voidItem();
        }
        return rest.object(ari, "GET", "/asterisk/info", Map.of()).replaceWithVoid().onFailure().transform(failure -> {
            if (failure instanceof AriRest.Refusal refusal) {
                if (refusal.status == 401 || refusal.status == 403) {
                    return new DomainRuleViolation("Asterisk refused these credentials (HTTP " + refusal.status
                            + "): check app_name and app_password (an ari.conf user)");
                }
                if (refusal.status == 404) {
                    return new DomainRuleViolation("No Asterisk REST Interface answers at ari_endpoint (HTTP 404):"
                            + " check ari_endpoint (http.conf enabled, ARI on)");
                }
                return new UpstreamServiceException(refusal.getMessage() + ": the credentials could not be checked");
            }
            if (failure instanceof AriRest.NotAllowed notAllowed) {
                return new DomainRuleViolation("ari_endpoint: " + notAllowed.getMessage());
            }
            return new UpstreamServiceException(failure.getMessage() + ": the credentials could not be checked");
        });
    }
}
