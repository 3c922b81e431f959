package dev.voiceagent.adapters.rest.telephony;

import dev.voiceagent.application.telephony.AddPhoneNumberUseCase;
import dev.voiceagent.application.telephony.AddTrunkUseCase;
import dev.voiceagent.application.telephony.ChangeTrunkUseCase;
import dev.voiceagent.application.telephony.ListTrunksUseCase;
import dev.voiceagent.application.telephony.RemoveTrunkUseCase;
import dev.voiceagent.application.telephony.CreateTelephonyConfigurationUseCase;
import dev.voiceagent.application.telephony.DeleteTelephonyConfigurationUseCase;
import dev.voiceagent.application.telephony.GetPhoneNumberUseCase;
import dev.voiceagent.application.telephony.GetTelephonyConfigWarningsUseCase;
import dev.voiceagent.application.telephony.GetTelephonyConfigurationUseCase;
import dev.voiceagent.application.telephony.ListDispositionCodesUseCase;
import dev.voiceagent.application.telephony.ListPhoneNumbersUseCase;
import dev.voiceagent.application.telephony.ListTelephonyConfigurationsUseCase;
import dev.voiceagent.application.telephony.ReactivateTelephonyConfigurationUseCase;
import dev.voiceagent.application.telephony.RemovePhoneNumberUseCase;
import dev.voiceagent.application.telephony.SetDefaultCallerUseCase;
import dev.voiceagent.application.telephony.SetDefaultOutboundUseCase;
import dev.voiceagent.application.telephony.UpdatePhoneNumberUseCase;
import dev.voiceagent.application.telephony.UpdateTelephonyConfigurationUseCase;
import jakarta.inject.Singleton;

/** The telephony in-ports the resource drives, gathered so that the resource has one collaborator. */
@Singleton
public record TelephonyUseCases(
        ListTelephonyConfigurationsUseCase list,
        CreateTelephonyConfigurationUseCase create,
        GetTelephonyConfigurationUseCase get,
        UpdateTelephonyConfigurationUseCase update,
        DeleteTelephonyConfigurationUseCase delete,
        SetDefaultOutboundUseCase setDefault,
        ReactivateTelephonyConfigurationUseCase reactivate,
        ListPhoneNumbersUseCase listNumbers,
        AddPhoneNumberUseCase addNumber,
        GetPhoneNumberUseCase getNumber,
        UpdatePhoneNumberUseCase updateNumber,
        RemovePhoneNumberUseCase removeNumber,
        SetDefaultCallerUseCase setDefaultCaller,
        ListDispositionCodesUseCase dispositionCodes,
        ListTrunksUseCase listTrunks,
        AddTrunkUseCase addTrunk,
        ChangeTrunkUseCase changeTrunk,
        RemoveTrunkUseCase removeTrunk,
        GetTelephonyConfigWarningsUseCase warnings) {
}
