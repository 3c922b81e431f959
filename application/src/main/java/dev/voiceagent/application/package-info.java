/**
 * The application layer: use cases and the ports they need. How code here is shaped (ADR 1 says why):
 * <ul>
 * <li><b>In-port</b>: a {@code <Verb><Noun>UseCase} interface with one method, in its feature's package
 * ({@code campaign.StartCampaignUseCase}); a feature whose operations share one state may gather them as nested
 * one-method interfaces of a {@code <Feature>UseCases} holder ({@code webhook.WebhookUseCases.RotateWebhookSecretUseCase}).
 * A driving adapter injects the one-method interface it calls, never a bundle.</li>
 * <li><b>Implementation</b>: a {@code <Verb><Noun>Service} (or one service for a holder's operations) annotated
 * {@code @jakarta.inject.Singleton}, with one constructor taking ports. Nothing else of the container is used here;
 * a test builds the service with {@code new} and fakes. A service that needs settings takes a plain record (e.g.
 * {@code campaign.DispatchSettings}) and is produced by the composition root from {@code VoiceAgentConfig}.</li>
 * <li><b>Out-port</b>: an interface named after the capability ({@code CallGateway}, {@code LanguageModel},
 * {@code WebhookOutbox}). A port method is one transaction; two writes that must commit together are one method.
 * "Not found" is an {@code Optional}, never a null item. A new outside system (a speech provider, a realtime model)
 * is a new out-port here and an adapter of its own; its protocol never appears in this layer.</li>
 * <li><b>Decisions</b> live in the domain (pure, synchronous, tested without Mutiny); a service reads facts through
 * ports, asks the domain, and writes the outcome, webhook events included ({@code domain.webhook.WebhookEvent}).</li>
 * <li><b>Packages</b> are features and are free of cycles (ArchUnit); what two features share has a package of its
 * own ({@code shared}, {@code dispatch}, {@code source}).</li>
 * </ul>
 */
package dev.voiceagent.application;
