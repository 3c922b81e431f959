package dev.voiceagent.adapters.media.carrier;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/** The carriers whose media the media route speaks: a fresh dialect of each is offered a call's first messages. */
public final class CarrierDialects {

    /** Every carrier's dialect, in the order a start message is offered to them. */
    public static final List<Supplier<CarrierDialect>> ALL = List.of(TwilioDialect::new, TelnyxDialect::new,
            PlivoDialect::new, VobizDialect::new, VonageDialect::new, CloudonixDialect::new,
            AsteriskDialect::new);

    /** Each run mode (its carrier's wire name) with {@link #ALL} ordered for it: computed once, not per call. */
    private static final Map<String, List<Supplier<CarrierDialect>>> BY_MODE = byMode(Map.of("twilio",
            TwilioDialect::new, "telnyx", TelnyxDialect::new, "plivo", PlivoDialect::new, "vobiz", VobizDialect::new,
            "vonage", VonageDialect::new, "cloudonix", CloudonixDialect::new, "ari", AsteriskDialect::new));

    private CarrierDialects() {
    }

    /**
     * Every dialect, the run's own carrier's first: carriers that share a protocol (Plivo and Vobiz) read the same
     * start, and the call is its run's carrier's. A mode that is no carrier's keeps {@link #ALL}'s order.
     */
    public static List<Supplier<CarrierDialect>> forMode(String mode) {
        return mode == null ? ALL : BY_MODE.getOrDefault(mode.toLowerCase(Locale.ROOT), ALL);
    }

    private static Map<String, List<Supplier<CarrierDialect>>> byMode(Map<String, Supplier<CarrierDialect>> own) {
        Map<String, List<Supplier<CarrierDialect>>> orders = new HashMap<>();
        own.forEach((mode, first) -> {
            String carrier = first.get().carrier();
            List<Supplier<CarrierDialect>> ordered = new ArrayList<>(ALL.size());
            ordered.add(first);
            for (Supplier<CarrierDialect> dialect : ALL) {
                if (!dialect.get().carrier().equals(carrier)) {
                    ordered.add(dialect);
                }
            }
            orders.put(mode, List.copyOf(ordered));
        });
        return Map.copyOf(orders);
    }
}
