package dev.voiceagent.application.conversation;

import dev.voiceagent.domain.tool.ToolCategory;
import dev.voiceagent.domain.tool.TransferDestinations;
import jakarta.inject.Singleton;
import dev.voiceagent.application.tool.CredentialRepository;
import dev.voiceagent.application.tool.ToolHttp;
import dev.voiceagent.application.tool.ToolRepository;
import dev.voiceagent.domain.conversation.AgentEngine;
import dev.voiceagent.domain.conversation.FunctionSpec;
import dev.voiceagent.domain.conversation.ToolCall;
import dev.voiceagent.domain.shared.DomainRuleViolation;
import dev.voiceagent.domain.tool.Calculator;
import dev.voiceagent.domain.tool.Credential;
import dev.voiceagent.domain.tool.HttpToolRequest;
import dev.voiceagent.domain.tool.Tool;
import dev.voiceagent.domain.tool.ToolFunctions;
import dev.voiceagent.domain.tool.ToolStatus;
import dev.voiceagent.domain.workflow.WorkflowDefinition;
import dev.voiceagent.domain.workflow.WorkflowDefinition.Node;
import io.smallrye.mutiny.Uni;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The tools of a conversation: a definition's nodes name tools by uuid; they are read once per turn (one
 * statement), offered to the model as functions, and run when it calls them. http_api tools make their request
 * through the address guard and calculator tools compute; end_call ends the session and transfer_call hands it off
 * (a text chat cannot transfer: it ends with the destination). A tool's failure is the model's answer, not the
 * turn's failure.
 */
@Singleton
public class ConversationTools {

    /** The functions each node offers, and the runner for their calls. */
    public record Toolbox(Function<Node, List<FunctionSpec>> nodeTools, ToolRunner runner) {

        public static final Toolbox NONE = new Toolbox(n -> List.of(), ToolRunner.NONE);
    }

    private final ToolRepository tools;
    private final CredentialRepository credentials;
    private final ToolHttp http;

    public ConversationTools(ToolRepository tools, CredentialRepository credentials, ToolHttp http) {
        this.tools = tools;
        this.credentials = credentials;
        this.http = http;
    }

    public Uni<Toolbox> load(long organizationId, WorkflowDefinition definition) {
        var uuids = ToolFunctions.toolUuids(definition);
        if (uuids.isEmpty()) {
            return Uni.createFrom().item(Toolbox.NONE);
        }
        return tools.findAll(organizationId, uuids).map(found -> {
            Map<String, Tool> byUuid = new LinkedHashMap<>();
            found.stream().filter(t -> t.status() != ToolStatus.ARCHIVED).forEach(t -> byUuid.put(t.uuid(), t));
            Function<Node, Map<String, Tool>> ofNode = node -> {
                Map<String, Tool> byFunction = new LinkedHashMap<>();
                for (String uuid : ToolFunctions.toolUuids(node)) {
                    Tool tool = byUuid.get(uuid);
                    FunctionSpec spec = tool == null ? null : ToolFunctions.spec(tool);
                    if (spec != null) {
                        byFunction.putIfAbsent(spec.name(), tool);
                    }
                }
                return byFunction;
            };
            Function<Node, List<FunctionSpec>> nodeTools = node -> {
                List<FunctionSpec> specs = new ArrayList<>();
                ofNode.apply(node).values().forEach(t -> specs.add(ToolFunctions.spec(t)));
                return specs;
            };
            ToolRunner runner = (turn, step) -> {
                Tool tool = ofNode.apply(turn.currentNode()).get(step.call().name());
                return tool == null ? ToolRunner.NONE.run(turn, step) : run(turn, step.call(), tool);
            };
            return new Toolbox(nodeTools, runner);
        });
    }

    private Uni<Void> run(AgentEngine.Turn turn, ToolCall call, Tool tool) {
        Map<String, Object> config = tool.config();
        switch (tool.category()) {
            case CALCULATOR -> {
                Object expression = call.arguments().get("expression");
                try {
                    turn.acceptToolResult(call.id(), Map.of("result", Calculator.evaluate(
                            expression == null ? null : String.valueOf(expression)).toPlainString()));
                } catch (DomainRuleViolation e) {
                    turn.acceptToolResult(call.id(), Map.of("error", e.getMessage()));
                }
                return Uni.createFrom().voidItem();
            }
            case END_CALL -> {
                Map<String, Object> details = new LinkedHashMap<>();
                details.put("tool", tool.name());
                if (call.arguments().get("reason") instanceof String reason && !reason.isBlank()) {
                    details.put("end_call_reason", reason);
                }
                turn.acceptToolEnd(call.id(), "The conversation is ending", spoken(config), "end_call", details);
                return Uni.createFrom().voidItem();
            }
            case TRANSFER_CALL -> {
                Map<String, Object> details = new LinkedHashMap<>();
                details.put("tool", tool.name());
                details.put("destination_source", config.get("destination_source"));
                details.put("timeout", config.get("timeout") instanceof Number t ? t.intValue() : 30);
                for (String whisper : new String[] {"whisper_message", "whisper_recording_id"}) {
                    if (config.get(whisper) instanceof String w && !w.isBlank()) {
                        details.put(whisper, w.strip());
                    }
                }
                Uni<Destination> destination;
                if ("dynamic".equals(config.get("destination_source"))) { // the tool's HTTP resolver decides
                    destination = resolve(tool, call, turn);
                } else { // static (a template, maybe) or the context mapping's rules, from the call's values
                    Map<String, Object> context = turn.toolContext();
                    TransferDestinations.Resolution resolved =
                            TransferDestinations.resolve(config,
                                    asMap(context.get("initial_context")), asMap(context.get("gathered_context")));
                    destination = Uni.createFrom().item(new Destination(resolved.destination(), null,
                            resolved.problem()));
                }
                return destination.invoke(resolved -> {
                    details.put("destination", resolved.destination());
                    if (resolved.problem() != null) {
                        details.put("destination_problem", resolved.problem());
                    }
                    turn.acceptToolEnd(call.id(), "Transferring the conversation", resolved.message() != null
                            ? resolved.message() : spoken(config), "transfer_call", details);
                }).replaceWithVoid();
            }
            case HTTP_API -> {
                return credential(tool).chain(credential -> {
                    HttpToolRequest request = HttpToolRequest.plan(tool, call.arguments(), null, turn.toolContext(),
                            credential.orElse(null));
                    return http.send(request);
                }).map(reply -> {
                    Map<String, Object> result = new LinkedHashMap<>();
                    result.put("status_code", reply.statusCode());
                    result.put("data", reply.json() != null ? reply.json() : excerpt(reply.body()));
                    return (Object) result;
                }).onFailure().recoverWithItem(failure -> Map.of("error", failure.getMessage() == null
                        ? failure.getClass().getSimpleName() : failure.getMessage()))
                        .invoke(result -> turn.acceptToolResult(call.id(), result)).replaceWithVoid();
            }
            default -> {
                return ToolRunner.NONE.run(turn, new AgentEngine.Step.RunTool(call, null));
            }
        }
    }

    private Uni<Optional<Credential>> credential(Tool tool) {
        Object uuid = tool.config().get("credential_uuid");
        if (!(uuid instanceof String s) || s.isBlank()) {
            return Uni.createFrom().item(Optional.empty());
        }
        return credentials.find(tool.organizationId(), s).map(found -> {
            if (found.isEmpty()) {
                throw new DomainRuleViolation("The tool's credential no longer exists");
            }
            return found;
        });
    }

    private static String spoken(Map<String, Object> config) {
        return "custom".equals(config.get("messageType")) && config.get("customMessage") instanceof String m
                && !m.isBlank() ? m : null;
    }

    private static String excerpt(String body) {
        if (body == null) {
            return null;
        }
        return body.length() > 4_000 ? body.substring(0, 4_000) + "..." : body;
    }

    /**
     * A dynamic transfer's destination from its HTTP resolver, as the reference asks it: a POST of the model's
     * arguments and the resolver's preset parameters (through the address guard, with its credential) answered by
     * {@code {transfer_context: {destination, custom_message?}}}, the custom message said instead of the tool's; a
     * resolver that fails or names no destination is a problem on the transfer, not a failure of the turn.
     */
    /** Where a transfer goes, what is said first instead of the tool's message (null: the tool's), or why nowhere. */
    private record Destination(String destination, String message, String problem) {
    }

    private Uni<Destination> resolve(Tool tool, ToolCall call, AgentEngine.Turn turn) {
        Map<String, Object> resolver = asMap(tool.config().get("resolver"));
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("method", "POST");
        config.put("url", resolver.get("url"));
        config.put("headers", resolver.get("headers") == null ? Map.of() : resolver.get("headers"));
        config.put("credential_uuid", resolver.get("credential_uuid"));
        config.put("parameters", tool.config().get("parameters") == null ? List.of()
                : tool.config().get("parameters"));
        config.put("preset_parameters", resolver.get("preset_parameters") == null ? List.of()
                : resolver.get("preset_parameters"));
        config.put("timeout_ms", resolver.get("timeout_ms") instanceof Number n ? n : 3_000);
        Tool asked = new Tool(tool.id(), tool.organizationId(), tool.uuid(), tool.name(), tool.description(),
                ToolCategory.HTTP_API, null, null, tool.status(),
                Map.of("schema_version", 1, "type", "http_api", "config", config), tool.createdBy(), tool.createdAt(),
                tool.updatedAt());
        return credential(asked).chain(credential -> http.send(HttpToolRequest.plan(asked, call.arguments(), null,
                        turn.toolContext(), credential.orElse(null))))
                .map(reply -> {
                    if (reply.statusCode() < 200 || reply.statusCode() >= 300) {
                        return refusedTransfer("the transfer resolver answered HTTP " + reply.statusCode());
                    }
                    Map<String, Object> context = reply.json() instanceof Map<?, ?> m
                            ? asMap(m.get("transfer_context")) : Map.of();
                    if (!(context.get("destination") instanceof String d) || d.isBlank()) {
                        return refusedTransfer("the transfer resolver's answer has no transfer_context.destination");
                    }
                    String message = context.get("custom_message") instanceof String c ? c.strip() : null;
                    return new Destination(d.strip(), message, null);
                })
                .onFailure().recoverWithItem(failure -> refusedTransfer("the transfer resolver failed: "
                        + failure.getMessage()));
    }

    private static Destination refusedTransfer(String problem) {
        return new Destination(null, null, problem);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> asMap(Object value) {
        return value instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    }
}
