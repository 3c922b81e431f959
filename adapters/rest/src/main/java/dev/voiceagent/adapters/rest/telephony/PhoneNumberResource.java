package dev.voiceagent.adapters.rest.telephony;

import dev.voiceagent.adapters.rest.auth.Caller;
import dev.voiceagent.application.telephony.AddPhoneNumberCommand;
import dev.voiceagent.application.telephony.AddPhoneNumberUseCase;
import dev.voiceagent.application.telephony.GetPhoneNumberUseCase;
import dev.voiceagent.application.telephony.ListPhoneNumbersUseCase;
import dev.voiceagent.application.telephony.RemovePhoneNumberUseCase;
import dev.voiceagent.application.telephony.SetDefaultCallerUseCase;
import dev.voiceagent.application.telephony.UpdatePhoneNumberCommand;
import dev.voiceagent.application.telephony.UpdatePhoneNumberUseCase;
import dev.voiceagent.adapters.rest.telephony.TelephonyConfigurationResource.PhoneNumberListResponse;
import dev.voiceagent.adapters.rest.telephony.TelephonyConfigurationResource.PhoneNumberResponse;
import dev.voiceagent.adapters.rest.telephony.TelephonyConfigurationResource.PhoneNumberCreateRequest;
import dev.voiceagent.adapters.rest.telephony.TelephonyConfigurationResource.PhoneNumberUpdateRequest;
import dev.voiceagent.adapters.rest.telephony.TelephonyConfigurationResource.DeletedResponse;
import io.smallrye.mutiny.Uni;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;

/** A telephony configuration's phone numbers (the bodies are TelephonyConfigurationResource's public records). */
@Path("/api/v1/organizations/telephony-configs/{config_id}/phone-numbers")
public class PhoneNumberResource {

    private final Caller caller;
    private final ListPhoneNumbersUseCase listNumbers;
    private final AddPhoneNumberUseCase addNumber;
    private final GetPhoneNumberUseCase getNumber;
    private final UpdatePhoneNumberUseCase updateNumber;
    private final RemovePhoneNumberUseCase removeNumber;
    private final SetDefaultCallerUseCase setDefaultCaller;

    public PhoneNumberResource(Caller caller, ListPhoneNumbersUseCase listNumbers, AddPhoneNumberUseCase addNumber,
            GetPhoneNumberUseCase getNumber, UpdatePhoneNumberUseCase updateNumber,
                    RemovePhoneNumberUseCase removeNumber,
            SetDefaultCallerUseCase setDefaultCaller) {
        this.caller = caller;
        this.listNumbers = listNumbers;
        this.addNumber = addNumber;
        this.getNumber = getNumber;
        this.updateNumber = updateNumber;
        this.removeNumber = removeNumber;
        this.setDefaultCaller = setDefaultCaller;
    }

    @GET
    public Uni<PhoneNumberListResponse> numbers(@PathParam("config_id") long configId) {
        return listNumbers.list(caller.principal(), configId)
                .map(list -> new PhoneNumberListResponse(list.stream().map(PhoneNumberResponse::of).toList()));
    }

    @POST
    public Uni<PhoneNumberResponse> addNumber(@PathParam("config_id") long configId,
            @NotNull @Valid PhoneNumberCreateRequest body) {
        return addNumber.add(new AddPhoneNumberCommand(caller.principal(), configId, body.address(),
                body.countryCode(), body.label(), body.inboundWorkflowId(), body.telephonyTrunkId(),
                !Boolean.FALSE.equals(body.isActive()),
                Boolean.TRUE.equals(body.isDefaultCallerId()), body.extraMetadata())).map(PhoneNumberResponse::of);
    }

    @GET
    @Path("/{phone_number_id}")
    public Uni<PhoneNumberResponse> number(@PathParam("config_id") long configId,
            @PathParam("phone_number_id") long numberId) {
        return getNumber.get(caller.principal(), configId, numberId).map(PhoneNumberResponse::of);
    }

    @PUT
    @Path("/{phone_number_id}")
    public Uni<PhoneNumberResponse> updateNumber(@PathParam("config_id") long configId,
            @PathParam("phone_number_id") long numberId, @NotNull @Valid PhoneNumberUpdateRequest body) {
        return updateNumber.update(new UpdatePhoneNumberCommand(caller.principal(), configId, numberId,
                body.label(), body.inboundWorkflowId(), Boolean.TRUE.equals(body.clearInboundWorkflow()),
                body.telephonyTrunkId(), Boolean.TRUE.equals(body.clearTrunk()), body.isActive(),
                body.countryCode(), body.extraMetadata())).map(PhoneNumberResponse::of);
    }

    @DELETE
    @Path("/{phone_number_id}")
    public Uni<DeletedResponse> removeNumber(@PathParam("config_id") long configId,
            @PathParam("phone_number_id") long numberId) {
        return removeNumber.remove(caller.principal(), configId, numberId)
                .replaceWith(new DeletedResponse(true, "Phone number deleted"));
    }

    @POST
    @Path("/{phone_number_id}/set-default-caller")
    public Uni<PhoneNumberResponse> setDefaultCaller(@PathParam("config_id") long configId,
            @PathParam("phone_number_id") long numberId) {
        return setDefaultCaller.setDefaultCaller(caller.principal(), configId, numberId)
                .map(PhoneNumberResponse::of);
    }
}
