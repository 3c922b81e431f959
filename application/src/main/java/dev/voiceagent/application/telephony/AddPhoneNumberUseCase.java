package dev.voiceagent.application.telephony;

import io.smallrye.mutiny.Uni;

public interface AddPhoneNumberUseCase {

    Uni<PhoneNumberView> add(AddPhoneNumberCommand command);
}
