package dev.voiceagent.adapters.telephony;

import dev.voiceagent.adapters.telephony.vonage.VonageJwt;
import dev.voiceagent.application.shared.UpstreamServiceException;
import dev.voiceagent.application.telephony.CarrierAccounts;
import dev.voiceagent.domain.shared.DomainRuleViolation;
import dev.voiceagent.domain.telephony.ProviderConfiguration;
import io.quarkus.rest.client.reactive.QuarkusRestClientBuilder;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Typed;
import jakarta.ws.rs.WebApplicationException;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * A configuration's credentials checked with its carrier when it is saved ({@link CarrierAccountApi}): Twilio's
 * account, Telnyx's balance, Plivo's and Vobiz's account, Vonage's Voice application (and its private key read), the
 * Cloudonix domain. A 401, 403 or 404 is the carrier refusing them (a 400 naming the fields to check); no answer, a
 * time-out or a 5xx is the carrier unavailable (a 502). The simulator is not asked; Asterisk's ARI endpoint (an address
 * the tenant names) is not asked from here. Off where no carrier can be reached ({@code
 * voiceagent.telephony.verify-credentials=false}, the tests' profile).
 */
@ApplicationScoped
@Typed(CarrierAccountChecks.class) // the port is composed with Asterisk's check by the application (TelephonyProducers)
public class CarrierAccountChecks implements CarrierAccounts {

    private final boolean enabled;
    private final Duration timeout;
    private final CarrierAccountApi twilio;
    private final CarrierAccountApi telnyx;
    private final CarrierAccountApi plivo;
    private final CarrierAccountApi vobiz;
    private final CarrierAccountApi vonage;
    private final CarrierAccountApi cloudonix;

    public CarrierAccountChecks(
            @ConfigProperty(name = "voiceagent.telephony.verify-credentials", defaultValue = "true") boolean enabled,
            @ConfigProperty(name = "voiceagent.telephony.verify-timeout", defaultValue = "PT10S") Duration timeout,
            @ConfigProperty(name = "voiceagent.twilio.base-url", defaultValue = "https://api.twilio.com") String twilio,
            @ConfigProperty(name = "voiceagent.telnyx.base-url", defaultValue = "https://api.telnyx.com") String telnyx,
            @ConfigProperty(name = "voiceagent.plivo.base-url", defaultValue = "https://api.plivo.com") String plivo,
            @ConfigProperty(name = "voiceagent.vobiz.base-url", defaultValue = "https://api.vobiz.ai") String vobiz,
            @ConfigProperty(name = "voiceagent.vonage.base-url", defaultValue = "https://api.nexmo.com") String vonage,
            @ConfigProperty(name = "voiceagent.cloudonix.base-url", defaultValue = "https://api.cloudonix.io")
            String cloudonix) {
        this.enabled = enabled;
        this.timeout = timeout;
        this.twilio = client(twilio);
        this.telnyx = client(telnyx);
        this.plivo = client(plivo);
        this.vobiz = client(vobiz);
        this.vonage = client(vonage);
        this.cloudonix = client(cloudonix);
    }

    private static CarrierAccountApi client(String base) {
        return QuarkusRestClientBuilder.newBuilder().baseUri(URI.create(base)).build(CarrierAccountApi.class);
    }

    @Override
    public Uni<Void> verify(ProviderConfiguration configuration) {
        if (!enabled) {
            return Uni.createFrom().voidItem();
        }
        return switch (configuration) {
            case ProviderConfiguration.Twilio t -> ask("Twilio", "account_sid and auth_token",
                    twilio.twilio(t.accountSid(), CarrierApis.basic(t.accountSid(), t.authToken())));
            case ProviderConfiguration.Telnyx t -> ask("Telnyx", "api_key", telnyx.telnyx("Bearer " + t.apiKey()));
            case ProviderConfiguration.Plivo p -> ask("Plivo", "auth_id and auth_token",
                    plivo.plivo(p.authId(), CarrierApis.basic(p.authId(), p.authToken())));
            case ProviderConfiguration.Vobiz v -> ask("Vobiz", "auth_id and auth_token",
                    vobiz.vobiz(v.authId(), v.authId(), v.authToken()));
            case ProviderConfiguration.Vonage v -> Uni.createFrom().deferred(() -> {
                try { // Vonage's every call is signed with the application's private key: one it cannot read is refused
                    VonageJwt.privateKey(v.privateKey());
                } catch (IllegalArgumentException e) {
                    return Uni.createFrom().failure(new DomainRuleViolation(e.getMessage()));
                }
                return ask("Vonage", "api_key, api_secret and application_id",
                        vonage.vonage(v.applicationId(), CarrierApis.basic(v.apiKey(), v.apiSecret())));
            });
            case ProviderConfiguration.Cloudonix c -> ask("Cloudonix", "bearer_token and domain_id",
                    cloudonix.cloudonix(c.domainId(), "Bearer " + c.bearerToken()));
            default -> Uni.createFrom().voidItem(); // the simulator; Asterisk's endpoint is asked through the guard
        };
    }

    private Uni<Void> ask(String carrier, String fields, Uni<Map<String, Object>> request) {
        return request.ifNoItem().after(timeout).failWith(() -> new UpstreamServiceException(carrier
                        + " did not answer within " + timeout.toSeconds() + " s: the credentials could not be checked"))
                .replaceWithVoid().onFailure().transform(failure -> {
                    if (failure instanceof UpstreamServiceException) {
                        return failure;
                    }
                    if (failure instanceof WebApplicationException web && web.getResponse() != null) {
                        int status = web.getResponse().getStatus();
                        if (status == 401 || status == 403 || status == 404) {
                            return new DomainRuleViolation(carrier + " refused these credentials (HTTP " + status
                                    + "): check " + fields);
                        }
                        return new UpstreamServiceException(carrier + " answered HTTP " + status
                                + ": the credentials could not be checked");
                    }
                    return new UpstreamServiceException(carrier + " could not be reached: the credentials could not"
                            + " be checked");
                });
    }
}
