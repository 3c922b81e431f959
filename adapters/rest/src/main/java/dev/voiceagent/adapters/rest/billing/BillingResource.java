package dev.voiceagent.adapters.rest.billing;

import dev.voiceagent.adapters.rest.auth.Caller;
import dev.voiceagent.application.billing.BillingUseCases;
import io.smallrye.mutiny.Uni;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import java.time.Instant;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * The organization's subscription and credit purchases. Without a payment provider configured (the self-hosted
 * default) the subscription answers enabled false and every payment request is a 400 "Billing is not configured
 * on this installation".
 */
@Path("/api/v1/organizations")
public class BillingResource {

    public record SubscriptionResponse(boolean enabled, String status, @Schema(nullable = true) String plan,
            @Schema(nullable = true, type = SchemaType.STRING, format = "date-time", implementation = String.class)
            Instant currentPeriodEnd, boolean cancelAtPeriodEnd,
            @Schema(description = "Whether calls and chats are refused (402) at a zero credit balance")
            boolean creditsEnforced) {
    }

    public record CheckoutRequest(@Schema(nullable = true) @Size(max = 100) String plan,
            @Schema(nullable = true) @Size(max = 2_000) String successUrl,
            @Schema(nullable = true) @Size(max = 2_000) String cancelUrl) {
    }

    public record PortalRequest(@Schema(nullable = true) @Size(max = 2_000) String returnUrl) {
    }

    public record CreditPurchaseRequest(@Schema(nullable = true) @Min(1) @Max(100_000_000) Long credits,
            @Schema(nullable = true) @Size(max = 2_000) String successUrl,
            @Schema(nullable = true) @Size(max = 2_000) String cancelUrl) {
    }

    public record RedirectResponse(String url) {
    }

    /** The reference's answer to a credit purchase. */
    public record MPSCreditPurchaseUrlResponse(String checkoutUrl) {
    }

    private final Caller caller;
    private final BillingUseCases.GetSubscriptionUseCase getSubscription;
    private final BillingUseCases.StartCheckoutUseCase startCheckout;
    private final BillingUseCases.OpenBillingPortalUseCase openBillingPortal;
    private final BillingUseCases.BuyCreditsUseCase buyCredits;

    public BillingResource(Caller caller, BillingUseCases.GetSubscriptionUseCase getSubscription,
            BillingUseCases.StartCheckoutUseCase startCheckout,
            BillingUseCases.OpenBillingPortalUseCase openBillingPortal, BillingUseCases.BuyCreditsUseCase buyCredits) {
        this.caller = caller;
        this.getSubscription = getSubscription;
        this.startCheckout = startCheckout;
        this.openBillingPortal = openBillingPortal;
        this.buyCredits = buyCredits;
    }

    @GET
    @Path("/billing/subscription")
    @Operation(summary = "Get Subscription", description = "enabled false when the installation has no payment"
            + " provider")
    public Uni<SubscriptionResponse> subscription() {
        return getSubscription.subscription(caller.principal()).map(s -> new SubscriptionResponse(s.enabled(),
                s.status(),
                s.plan(), s.currentPeriodEnd(), s.cancelAtPeriodEnd(), s.creditsEnforced()));
    }

    @POST
    @Path("/billing/subscription/checkout")
    @Operation(summary = "Create Subscription Checkout", description = "A hosted checkout page for a subscription;"
            + " 400 when billing is not configured")
    public Uni<RedirectResponse> checkout(@Valid CheckoutRequest body) {
        CheckoutRequest b = body == null ? new CheckoutRequest(null, null, null) : body;
        return startCheckout.checkout(caller.principal(), b.plan(), b.successUrl(), b.cancelUrl())
                .map(r -> new RedirectResponse(r.url()));
    }

    @POST
    @Path("/billing/subscription/portal")
    @Operation(summary = "Create Billing Portal Session", description = "The payment provider's portal; 400 when"
            + " billing is not configured")
    public Uni<RedirectResponse> portal(@Valid PortalRequest body) {
        return openBillingPortal.portal(caller.principal(), body == null ? null : body.returnUrl())
                .map(r -> new RedirectResponse(r.url()));
    }

    @POST
    @Path("/usage/mps-credits/purchase-url")
    @Operation(summary = "Get Credit Purchase Url", description = "A hosted checkout page for a one-off credit"
            + " purchase; 400 when billing is not configured")
    public Uni<MPSCreditPurchaseUrlResponse> purchaseUrl(@Valid CreditPurchaseRequest body) {
        CreditPurchaseRequest b = body == null ? new CreditPurchaseRequest(null, null, null) : body;
        return buyCredits.creditPurchase(caller.principal(), b.credits(), b.successUrl(), b.cancelUrl())
                .map(r -> new MPSCreditPurchaseUrlResponse(r.url()));
    }
}
