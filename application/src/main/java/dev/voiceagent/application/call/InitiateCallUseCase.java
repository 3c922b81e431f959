package dev.voiceagent.application.call;

import io.smallrye.mutiny.Uni;

public interface InitiateCallUseCase {

    Uni<InitiatedCall> initiate(InitiateCallCommand command);
}
