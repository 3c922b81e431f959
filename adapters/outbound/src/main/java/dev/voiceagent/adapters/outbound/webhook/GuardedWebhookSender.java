package dev.voiceagent.adapters.outbound.webhook;

import dev.voiceagent.adapters.outbound.GuardedHttp;
import dev.voiceagent.application.webhook.WebhookSender;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A webhook POST through the outbound address guard (the same one as tools and MCP servers): a private or
 * metadata address is refused before anything is sent. 10 s to answer; the answer becomes the attempt's record
 * ({@link WebhookSender.Result#answered}).
 */
@ApplicationScoped
public class GuardedWebhookSender implements WebhookSender {

    static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final GuardedHttp http;

    public GuardedWebhookSender(GuardedHttp http) {
        this.http = http;
    }

    @Override
    public Uni<Result> send(String url, String messageId, long timestampSeconds, String body, List<String> secrets) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Content-Type", "application/json");
        headers.put("User-Agent", "voice-agent-webhooks/1");
        headers.put("webhook-id", messageId);
        headers.put("webhook-timestamp", Long.toString(timestampSeconds));
        headers.put("webhook-signature", StandardWebhooks.header(secrets, messageId, timestampSeconds, body));
        long started = System.nanoTime();
        return http.exchange("POST", url, headers, body.getBytes(StandardCharsets.UTF_8), TIMEOUT)
                .map(x -> Result.answered(x.status(), x.durationMs(), x.body(), x.headers().get("retry-after")))
                .onFailure().recoverWithItem(failure -> Result.unanswered(failure instanceof GuardedHttp.Refused,
                        String.valueOf(failure.getMessage()), (System.nanoTime() - started) / 1_000_000));
    }
}
