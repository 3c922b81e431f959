package dev.voiceagent.application.telephony;

import io.smallrye.mutiny.Uni;

public interface UpdatePhoneNumberUseCase {

    Uni<PhoneNumberView> update(UpdatePhoneNumberCommand command);
}
