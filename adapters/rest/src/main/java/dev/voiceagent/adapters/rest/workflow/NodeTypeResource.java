package dev.voiceagent.adapters.rest.workflow;

import dev.voiceagent.application.shared.ResourceNotFoundException;
import dev.voiceagent.domain.workflow.NodeTypeSpec;
import dev.voiceagent.domain.workflow.NodeTypes;
import dev.voiceagent.domain.workflow.PropertySpec;
import io.smallrye.common.annotation.NonBlocking;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** The node-type registry the validator uses, described field by field. */
@Path("/api/v1/node-types")
public class NodeTypeResource {

    @Schema(name = "PropertyOption")
    public record PropertyOptionResponse(Object value, String label) {
    }

    @Schema(name = "PropertySpec")
    public record PropertySpecResponse(String name, String type, String displayName, String description,
            @Schema(name = "default") Object defaultValue, boolean required, Double minValue, Double maxValue,
            Integer minLength, Integer maxLength, String pattern, List<PropertyOptionResponse> options,
            List<PropertySpecResponse> properties) {

        static PropertySpecResponse of(PropertySpec p) {
            return new PropertySpecResponse(p.name(), p.type().wireName(), p.displayName(), p.description(),
                    p.defaultValue(), p.required(), p.minValue(), p.maxValue(), p.minLength(), p.maxLength(), p.pattern(),
                    p.options() == null ? null : p.options().stream()
                            .map(o -> new PropertyOptionResponse(o.value(), o.label())).toList(),
                    p.properties() == null ? null : p.properties().stream().map(PropertySpecResponse::of).toList());
        }

        @com.fasterxml.jackson.annotation.JsonProperty("default")
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
    public record NodeSpecResponse(String name, String displayName, String description, String category, String icon,
            String version, List<PropertySpecResponse> properties, List<NodeExampleResponse> examples,
            GraphConstraintsResponse graphConstraints) {

        static NodeSpecResponse of(NodeTypeSpec t) {
            var c = t.graphConstraints();
            return new NodeSpecResponse(t.name(), t.displayName(), t.description(), t.category().wireName(), t.icon(),
                    t.version(), t.properties().stream().map(PropertySpecResponse::of).toList(),
                    t.examples().stream().map(e -> new NodeExampleResponse(e.name(), e.description(), e.data())).toList(),
                    new GraphConstraintsResponse(c.minIncoming(), c.maxIncoming(), c.minOutgoing(), c.maxOutgoing(),
                            c.minInstances(), c.maxInstances()));
        }
    }

    @Schema(name = "NodeTypesResponse")
    public record NodeTypesResponse(String specVersion, List<NodeSpecResponse> nodeTypes) {
    }

    private static final NodeTypesResponse ALL = new NodeTypesResponse(NodeTypes.SPEC_VERSION,
            NodeTypes.all().stream().map(NodeSpecResponse::of).toList());

    @GET
    @NonBlocking
    public NodeTypesResponse all() {
        return ALL;
    }

    @GET
    @Path("/{name}")
    @NonBlocking
    public NodeSpecResponse one(@PathParam("name") String name) {
        return NodeTypes.byName(name).map(NodeSpecResponse::of)
                .orElseThrow(() -> new ResourceNotFoundException("Unknown node type: '" + name + "'"));
    }
}
