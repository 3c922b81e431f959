package dev.voiceagent.application.telephony;

import dev.voiceagent.domain.telephony.TelephonyNumber;
import io.smallrye.mutiny.Uni;

public interface AddPhoneNumberUseCase {

    Uni<TelephonyNumber> add(AddPhoneNumberCommand command);
}
