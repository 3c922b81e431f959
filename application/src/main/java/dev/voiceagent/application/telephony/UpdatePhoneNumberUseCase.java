package dev.voiceagent.application.telephony;

import dev.voiceagent.domain.telephony.TelephonyNumber;
import io.smallrye.mutiny.Uni;

public interface UpdatePhoneNumberUseCase {

    Uni<TelephonyNumber> update(UpdatePhoneNumberCommand command);
}
