package dev.voiceagent.adapters.media.carrier;

import java.util.List;
import java.util.function.Supplier;

/** The carriers whose media the media route speaks: a fresh dialect of each is offered a call's first messages. */
public final class CarrierDialects {

    /** Every carrier's dialect, in the order a start message is offered to them. */
    public static final List<Supplier<CarrierDialect>> ALL = List.of(TwilioDialect::new, TelnyxDialect::new);

    private CarrierDialects() {
    }
}
