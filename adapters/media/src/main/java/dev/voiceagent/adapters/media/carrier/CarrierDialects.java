package dev.voiceagent.adapters.media.carrier;

import java.util.ArrayList;
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

    /** Each run mode's carrier (the run's mode is its carrier's wire name). */
    private static final Map<String, Supplier<CarrierDialect>> BY_MODE = Map.of("twilio", TwilioDialect::new,
            "telnyx", TelnyxDialect::new, "plivo", PlivoDialect::new, "vobiz", VobizDialect::new, "vonage",
            VonageDialect::new, "cloudonix", CloudonixDialect::new, "ari",
            AsteriskDialect::new);

    private CarrierDialects() {
    }

    /**
     * Every dialect, the run's own carrier's first: carriers that share a protocol (Plivo and Vobiz) read the same
     * start, and the call is its run's carrier's. A mode that is no carrier's keeps {@link #ALL}'s order.
     */
    public static List<Supplier<CarrierDialect>> forMode(String mode) {
        Supplier<CarrierDialect> own = mode == null ? null : BY_MODE.get(mode.toLowerCase(Locale.ROOT));
        if (own == null) {
            return ALL;
        }
        String carrier = own.get().carrier();
        List<Supplier<CarrierDialect>> ordered = new ArrayList<>(ALL.size());
        ordered.add(own);
        for (Supplier<CarrierDialect> dialect : ALL) {
            if (!dialect.get().carrier().equals(carrier)) {
                ordered.add(dialect);
            }
        }
        return List.copyOf(ordered);
    }
}
