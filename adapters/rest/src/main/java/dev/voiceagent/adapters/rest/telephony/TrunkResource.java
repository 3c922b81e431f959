package dev.voiceagent.adapters.rest.telephony;

import dev.voiceagent.application.telephony.AddTrunkUseCase;
import dev.voiceagent.application.telephony.ChangeTrunkUseCase;
import dev.voiceagent.application.telephony.ListTrunksUseCase;
import dev.voiceagent.application.telephony.RemoveTrunkUseCase;
import dev.voiceagent.adapters.rest.auth.Caller;
import dev.voiceagent.adapters.rest.telephony.TelephonyConfigurationResource.TrunkListResponse;
import dev.voiceagent.adapters.rest.telephony.TelephonyConfigurationResource.TrunkResponse;
import dev.voiceagent.adapters.rest.telephony.TelephonyConfigurationResource.TrunkCreateRequest;
import dev.voiceagent.adapters.rest.telephony.TelephonyConfigurationResource.TrunkUpdateRequest;
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

/** A telephony configuration's SIP trunks (the bodies are TelephonyConfigurationResource's public records). */
@Path("/api/v1/organizations/telephony-configs/{config_id}/trunks")
public class TrunkResource {

    private final Caller caller;
    private final ListTrunksUseCase listTrunks;
    private final AddTrunkUseCase addTrunk;
    private final ChangeTrunkUseCase changeTrunk;
    private final RemoveTrunkUseCase removeTrunk;

    public TrunkResource(Caller caller, ListTrunksUseCase listTrunks, AddTrunkUseCase addTrunk,
            ChangeTrunkUseCase changeTrunk, RemoveTrunkUseCase removeTrunk) {
        this.caller = caller;
        this.listTrunks = listTrunks;
        this.addTrunk = addTrunk;
        this.changeTrunk = changeTrunk;
        this.removeTrunk = removeTrunk;
    }

    @GET
    public Uni<TrunkListResponse> trunks(@PathParam("config_id") long configId) {
        return listTrunks.list(caller.principal(), configId)
                .map(list -> new TrunkListResponse(list.stream().map(TrunkResponse::of).toList()));
    }

    @POST
    public Uni<TrunkResponse> addTrunk(@PathParam("config_id") long configId, @NotNull @Valid TrunkCreateRequest body) {
        return addTrunk.add(caller.principal(), configId, body.name(), !Boolean.FALSE.equals(body.enabled()),
                body.settings()).map(TrunkResponse::of);
    }

    @PUT
    @Path("/{trunk_id}")
    public Uni<TrunkResponse> changeTrunk(@PathParam("config_id") long configId, @PathParam("trunk_id") long trunkId,
            @NotNull @Valid TrunkUpdateRequest body) {
        return changeTrunk.change(caller.principal(), configId, trunkId, body.name(), body.enabled(),
                body.settings()).map(TrunkResponse::of);
    }

    @DELETE
    @Path("/{trunk_id}")
    public Uni<DeletedResponse> removeTrunk(@PathParam("config_id") long configId, @PathParam("trunk_id") long trunkId) {
        return removeTrunk.remove(caller.principal(), configId, trunkId)
                .replaceWith(new DeletedResponse(true, "Trunk deleted"));
    }
}
