package dev.voiceagent.adapters.payments;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.stream.Collectors;

/** application/x-www-form-urlencoded as Stripe reads it: keys with brackets kept literal, values URL-encoded. */
final class FormEncoding {

    private FormEncoding() {
    }

    static String encode(Map<String, String> form) {
        return form.entrySet().stream().filter(e -> e.getValue() != null)
                .map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "="
                        + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
    }
}
