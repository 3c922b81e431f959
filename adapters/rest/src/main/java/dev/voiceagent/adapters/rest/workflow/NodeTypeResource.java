package dev.voiceagent.adapters.rest.workflow;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.voiceagent.application.shared.ResourceNotFoundException;
import dev.voiceagent.domain.workflow.NodeTypeSpec;
import dev.voiceagent.domain.workflow.NodeTypes;
import dev.voiceagent.domain.workflow.PropertySpec;
import io.smallrye.common.annotation.NonBlocking;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Context;
import io.vertx.core.http.HttpServerRequest;
import dev.voiceagent.adapters.rest.shared.PublicBaseUrl;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** The node-type registry the validator uses, described field by field. */
@Path("/api/v1/node-types")
public class NodeTypeResource {

    @Schema(name = "PropertyOption")
    public record PropertyOptionResponse(Object value, String label, @Schema(nullable = true) String description) {
    }

    /** When a field is shown: every field named in {@code show} holds one of its values. */
    @Schema(name = "DisplayOptions")
    public record DisplayOptionsResponse(@Schema(nullable = true) Map<String, List<Object>> show,
            @Schema(nullable = true) Map<String, List<Object>> hide) {
    }

    @Schema(name = "PropertySpec")
    public record PropertySpecResponse(String name, String type, String displayName, String description,
            @Schema(nullable = true, description = "Guidance for language models; not shown in the editor") String llmHint,
            @Schema(name = "default") Object defaultValue, boolean required, @Schema(nullable = true) String placeholder,
            @Schema(nullable = true) DisplayOptionsResponse displayOptions, Double minValue, Double maxValue,
            Integer minLength, Integer maxLength, String pattern, List<PropertyOptionResponse> options,
            List<PropertySpecResponse> properties,
            @Schema(nullable = true, description = "textarea for long text") String editor) {

        static PropertySpecResponse of(PropertySpec p) {
            return new PropertySpecResponse(p.name(), p.type().wireName(), p.displayName(), p.description(),
                    p.llmHint(), p.defaultValue(), p.required(), p.placeholder(),
                    p.showWhen() == null ? null : new DisplayOptionsResponse(p.showWhen(), null),
                    p.minValue(), p.maxValue(), p.minLength(), p.maxLength(), p.pattern(),
                    p.options() == null ? null : p.options().stream()
                            .map(o -> new PropertyOptionResponse(o.value(), o.label(), o.description())).toList(),
                    p.properties() == null ? null : p.properties().stream().map(PropertySpecResponse::of).toList(),
                    p.editor());
        }

        @JsonProperty("default")
        public Object defaultValue() {
            return defaultValue;
        }
    }

    @Schema(name = "GraphConstraints")
    public record GraphConstraintsResponse(Integer minIncoming, Integer maxIncoming, Integer minOutgoing,
            Integer maxOutgoing, Integer minInstances, Integer maxInstances) {
    }

    @Schema(name = "NodeExample")
    public record NodeExampleResponse(String name, String description, Map<String, Object> data) {
    }

    @Schema(name = "NodeSpec")
    public record NodeSpecResponse(String name, String displayName, String description,
            @Schema(nullable = true, description = "Guidance for language models; not shown in the editor") String llmHint,
            @Schema(nullable = true, description = "The page of this service that documents the node type")
            String docsUrl,
            String category, String icon,
            String version, List<PropertySpecResponse> properties, List<NodeExampleResponse> examples,
            GraphConstraintsResponse graphConstraints) {

        static NodeSpecResponse of(NodeTypeSpec t, String docsBase) {
            var c = t.graphConstraints();
            return new NodeSpecResponse(t.name(), t.displayName(), t.description(), t.llmHint(),
                    docsBase + NodeTypeDocs.PATH + t.name(),
                    t.category().wireName(), t.icon(),
                    t.version(), t.properties().stream().map(PropertySpecResponse::of).toList(),
                    t.examples().stream().map(e -> new NodeExampleResponse(e.name(), e.description(), e.data())).toList(),
                    new GraphConstraintsResponse(c.minIncoming(), c.maxIncoming(), c.minOutgoing(), c.maxOutgoing(),
                            c.minInstances(), c.maxInstances()));
        }
    }

    @Schema(name = "NodeTypesResponse")
    public record NodeTypesResponse(String specVersion, List<NodeSpecResponse> nodeTypes) {
    }

    private final PublicBaseUrl base;

    public NodeTypeResource(PublicBaseUrl base) {
        this.base = base;
    }

    @GET
    @NonBlocking
    public NodeTypesResponse all(@Context HttpServerRequest request) {
        String docs = base.of(request);
        return new NodeTypesResponse(NodeTypes.SPEC_VERSION, NodeTypes.all().stream()
                .map(t -> NodeSpecResponse.of(t, docs)).toList());
    }

    @GET
    @Path("/{name}")
    @NonBlocking
    public NodeSpecResponse one(@PathParam("name") String name, @Context HttpServerRequest request) {
        return NodeTypes.byName(name).map(t -> NodeSpecResponse.of(t, base.of(request)))
                .orElseThrow(() -> new ResourceNotFoundException("Unknown node type: '" + name + "'"));
    }
}
