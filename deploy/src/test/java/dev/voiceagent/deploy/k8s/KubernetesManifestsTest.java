package dev.voiceagent.deploy.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/** Every manifest under deploy/k8s parses, and the fields operations rely on are there. */
class KubernetesManifestsTest {

    private static final Path DIR = Path.of("k8s");

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> documents() throws IOException {
        List<Map<String, Object>> all = new ArrayList<>();
        try (Stream<Path> files = Files.list(DIR)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
                for (Object doc : new Yaml().loadAll(Files.readString(file))) {
                    Map<String, Object> map = (Map<String, Object>) doc;
                    assertThat(map).as(file.toString()).containsKeys("apiVersion", "kind", "metadata");
                    all.add(map);
                }
            }
        }
        return all;
    }

    private static Map<String, Object> kind(String kind) throws IOException {
        return documents().stream().filter(d -> kind.equals(d.get("kind"))).findFirst().orElseThrow(
                () -> new AssertionError("no " + kind));
    }

    @SuppressWarnings("unchecked")
    private static <T> T at(Object node, String... path) {
        Object current = node;
        for (String step : path) {
            current = current instanceof List<?> list ? list.get(Integer.parseInt(step))
                    : ((Map<String, Object>) current).get(step);
        }
        return (T) current;
    }

    @Test
    void theDeploymentProbesDrainsRunsAsNonRootAndTakesItsSecrets() throws IOException {
        Map<String, Object> deployment = kind("Deployment");
        Map<String, Object> pod = at(deployment, "spec", "template", "spec");
        Map<String, Object> container = at(pod, "containers", "0");
        assertThat((String) at(container, "livenessProbe", "httpGet", "path")).isEqualTo("/q/health/live");
        assertThat((String) at(container, "readinessProbe", "httpGet", "path")).isEqualTo("/q/health/ready");
        assertThat((Map<String, Object>) at(container, "resources", "requests")).containsKeys("cpu", "memory");
        assertThat((Map<String, Object>) at(container, "resources", "limits")).containsKeys("cpu", "memory");
        assertThat((Boolean) at(pod, "securityContext", "runAsNonRoot")).isTrue();
        assertThat((Boolean) at(container, "securityContext", "allowPrivilegeEscalation")).isFalse();
        assertThat((String) at(container, "envFrom", "0", "secretRef", "name")).isEqualTo("voice-agent");
        List<Map<String, Object>> env = at(container, "env");
        Duration drain = Duration.parse((String) env.stream().filter(e -> "VOICEAGENT_DRAIN_MAX".equals(e.get("name")))
                .findFirst().orElseThrow().get("value"));
        int grace = at(pod, "terminationGracePeriodSeconds");
        assertThat(grace).as("the grace period outlasts the drain").isGreaterThan((int) drain.toSeconds());
    }

    @Test
    void theServiceDisruptionBudgetAndAutoscalersTargetTheDeployment() throws IOException {
        Map<String, Object> labels = at(kind("Deployment"), "spec", "template", "metadata", "labels");
        assertThat((Map<String, Object>) at(kind("Service"), "spec", "selector")).isEqualTo(labels);
        assertThat((Map<String, Object>) at(kind("PodDisruptionBudget"), "spec", "selector", "matchLabels"))
                .isEqualTo(labels);
        Map<String, Object> keda = kind("ScaledObject");
        assertThat((String) at(keda, "spec", "scaleTargetRef", "name")).isEqualTo("voice-agent");
        assertThat((String) at(keda, "spec", "triggers", "0", "type")).isEqualTo("metrics-api");
        assertThat((String) at(keda, "spec", "triggers", "0", "metadata", "url"))
                .contains("/api/v1/health/autoscale-metric");
        assertThat((String) at(keda, "spec", "triggers", "0", "metadata", "valueLocation")).isEqualTo("value");
        assertThat((String) at(keda, "spec", "triggers", "0", "metadata", "keyParamName")).isEqualTo("X-Devops-Secret");
        Map<String, Object> hpa = kind("HorizontalPodAutoscaler");
        assertThat((String) at(hpa, "spec", "scaleTargetRef", "name")).isEqualTo("voice-agent");
        assertThat((String) at(hpa, "spec", "metrics", "0", "type")).isEqualTo("External");
    }
}
