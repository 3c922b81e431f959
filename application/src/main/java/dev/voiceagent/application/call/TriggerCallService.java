package dev.voiceagent.application.call;

import dev.voiceagent.application.auth.AuthenticateUseCase;
import dev.voiceagent.application.auth.Credentials;
import dev.voiceagent.application.shared.ResourceNotFoundException;
import dev.voiceagent.application.workflow.WorkflowRepository;
import dev.voiceagent.domain.workflow.JsonTree;
import dev.voiceagent.domain.workflow.NodeTypes;
import dev.voiceagent.domain.workflow.Workflow;
import dev.voiceagent.domain.workflow.WorkflowStatus;
import dev.voiceagent.domain.workflow.WorkflowVersion;
import io.smallrye.mutiny.Uni;
import java.util.Optional;
import java.util.UUID;
import java.util.random.RandomGenerator;

/**
 * The reference's public agent triggers (5.3): the key's organization owns the workflow (another organization's
 * trigger is not found, not forbidden); the published version is used unless it is a test; the trigger node must
 * be in that version and enabled, the workflow active; the call goes the way initiate-call goes (the
 * organization's concurrency limit, the configuration's readiness).
 */
public class TriggerCallService implements TriggerCallUseCase {

    static final String NO_TRIGGER = "Trigger not found or disabled";
    static final String NO_WORKFLOW = "Workflow not found";
    static final String INACTIVE = "Workflow is not active";

    private final AuthenticateUseCase authenticate;
    private final WorkflowRepository workflows;
    private final InitiateCallUseCase initiate;
    private final RandomGenerator random;

    public TriggerCallService(AuthenticateUseCase authenticate, WorkflowRepository workflows,
            InitiateCallUseCase initiate, RandomGenerator random) {
        this.authenticate = authenticate;
        this.workflows = workflows;
        this.initiate = initiate;
        this.random = random;
    }

    @Override
    public Uni<InitiatedCall> trigger(String apiKey, Target target, String id, boolean test, TriggerCall call) {
        return authenticate.authenticate(new Credentials(apiKey, null)).chain(principal -> {
            long org = principal.organizationId();
            Uni<Optional<Long>> workflowId = target == Target.TRIGGER_PATH ? workflows.findIdByTriggerPath(org, id)
                    : uuid(id).map(u -> workflows.findIdByUuid(org, u)).orElse(Uni.createFrom().item(Optional.empty()));
            return workflowId.chain(found -> found.isEmpty()
                    ? Uni.createFrom().failure(new ResourceNotFoundException(target == Target.TRIGGER_PATH ? NO_TRIGGER
                            : NO_WORKFLOW))
                    : workflows.find(org, found.get())).map(w -> check((Optional<Workflow>) w, target, id, test))
                    .chain(workflow -> initiate.initiate(new InitiateCallCommand(principal, workflow.id(), null,
                            call.phoneNumber(), call.telephonyConfigurationId(), call.fromPhoneNumberId(), !test,
                            (test ? "WR-TEST-" : "WR-API-") + "%04d".formatted(random.nextInt(10_000)),
                            call.initialContext())));
        });
    }

    private static Workflow check(Optional<Workflow> found, Target target, String id, boolean test) {
        Workflow workflow = found.orElseThrow(() -> new ResourceNotFoundException(NO_WORKFLOW));
        if (workflow.status() != WorkflowStatus.ACTIVE) {
            throw new ResourceNotFoundException(INACTIVE);
        }
        WorkflowVersion version = test ? workflow.editable() : workflow.published();
        if (target == Target.TRIGGER_PATH && version.definition().nodes().stream().noneMatch(n ->
                NodeTypes.TRIGGER.equals(n.type()) && n.data() != null && id.equals(JsonTree.asString(n.data()
                        .get("trigger_path"))) && !Boolean.FALSE.equals(n.data().get("enabled")))) {
            throw new ResourceNotFoundException(NO_TRIGGER);
        }
        return workflow;
    }

    private static Optional<UUID> uuid(String id) {
        try {
            return Optional.of(UUID.fromString(id));
        } catch (IllegalArgumentException notAUuid) {
            return Optional.empty();
        }
    }
}
