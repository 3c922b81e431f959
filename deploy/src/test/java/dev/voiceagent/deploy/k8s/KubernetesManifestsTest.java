package dev.voiceagent.deploy.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
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

    /** The Kubernetes API types of the built-in kinds used here (KEDA's CRDs are checked field by field below). */
    private static final Map<String, Class<?>> API_TYPES = Map.of(
            "apps/v1/Deployment", io.fabric8.kubernetes.api.model.apps.Deployment.class,
            "v1/Service", io.fabric8.kubernetes.api.model.Service.class,
            "v1/Secret", io.fabric8.kubernetes.api.model.Secret.class,
            "policy/v1/PodDisruptionBudget", io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget.class,
            "autoscaling/v2/HorizontalPodAutoscaler",
            io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler.class,
            "batch/v1/Job", io.fabric8.kubernetes.api.model.batch.v1.Job.class);

    /**
     * Schema check without kubeconform (not installable from the registries these machines reach):
     * every built-in object binds to its API type with no field the API does not know (the model
     * keeps unknown fields aside, so they are looked for in the whole bound tree) and no wrongly
     * typed value (binding fails).
     */
    @Test
    void builtInObjectsMatchTheKubernetesApiSchema() throws Exception {
        com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
        int checked = 0;
        for (Map<String, Object> document : documents()) {
            String key = document.get("apiVersion") + "/" + document.get("kind");
            if (key.startsWith("keda.sh/")) {
                continue; // a CRD: ScaledObject and TriggerAuthentication
            }
            Class<?> type = API_TYPES.get(key);
            assertThat(type).as("a known API type for " + key).isNotNull();
            Object bound = json.convertValue(document, type);
            List<String> unknown = new ArrayList<>();
            unknownFields(bound, key, unknown, new IdentityHashMap<>());
            assertThat(unknown).as("fields the Kubernetes API does not define").isEmpty();
            checked++;
        }
        assertThat(checked).isEqualTo(API_TYPES.size());
    }

    /** Walks the bound model: any non-empty additionalProperties is a field the schema lacks. */
    private static void unknownFields(Object node, String path, List<String> unknown, Map<Object, Boolean> seen)
            throws Exception {
        if (node == null || seen.put(node, true) != null) {
            return;
        }
        if (node instanceof Iterable<?> items) {
            int i = 0;
            for (Object item : items) {
                unknownFields(item, path + "[" + i++ + "]", unknown, seen);
            }
            return;
        }
        if (node instanceof Map<?, ?> map) {
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                unknownFields(entry.getValue(), path + "." + entry.getKey(), unknown, seen);
            }
            return;
        }
        if (!node.getClass().getName().startsWith("io.fabric8.kubernetes.api.model")) {
            return;
        }
        for (Method getter : node.getClass().getMethods()) {
            if (getter.getParameterCount() != 0 || !getter.getName().startsWith("get")
                    || getter.getDeclaringClass() == Object.class) {
                continue;
            }
            Object value = getter.invoke(node);
            if (getter.getName().equals("getAdditionalProperties")) {
                if (value instanceof Map<?, ?> extra && !extra.isEmpty()) {
                    unknown.add(path + ": " + extra.keySet());
                }
            } else {
                unknownFields(value, path + "." + getter.getName().substring(3), unknown, seen);
            }
        }
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
        Duration warmUp = Duration.parse((String) env.stream()
                .filter(e -> "VOICEAGENT_WARM_UP_BUDGET".equals(e.get("name"))).findFirst().orElseThrow().get("value"));
        Integer progress = at(deployment, "spec", "progressDeadlineSeconds");
        assertThat(warmUp.toSeconds()).as("a replica warming up is not a stuck rollout")
                .isLessThan(progress == null ? 600 : progress);
        assertThat((Integer) at(container, "readinessProbe", "periodSeconds")).as("a warmed replica is ready soon")
                .isLessThanOrEqualTo(2);
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

    /** The migration Job runs the Deployment's image in migrate-only mode; the replicas then skip Flyway. */
    @Test
    void theMigrationJobMigratesWithTheDeploymentsImageAndTheReplicasSkipFlyway() throws IOException {
        Map<String, Object> job = kind("Job");
        Map<String, Object> pod = at(job, "spec", "template", "spec");
        Map<String, Object> container = at(pod, "containers", "0");
        Map<String, Object> app = at(kind("Deployment"), "spec", "template", "spec", "containers", "0");
        assertThat((String) at(container, "image")).isEqualTo(at(app, "image"));
        assertThat((String) at(pod, "restartPolicy")).isEqualTo("Never");
        assertThat((Boolean) at(pod, "securityContext", "runAsNonRoot")).isTrue();
        assertThat((String) at(container, "envFrom", "0", "secretRef", "name")).isEqualTo("voice-agent");
        assertThat(env(container)).containsEntry("VOICEAGENT_MIGRATE_ONLY", "true")
                .containsEntry("VOICEAGENT_MIGRATE_AT_START", "true").containsEntry("QUARKUS_SCHEDULER_ENABLED", "false");
        assertThat(env(app)).containsEntry("VOICEAGENT_MIGRATE_AT_START", "false")
                .doesNotContainKey("VOICEAGENT_MIGRATE_ONLY")
                .as("replicas blank the secret's JDBC URL: no Flyway, no JDBC pool").containsEntry("QUARKUS_DATASOURCE_JDBC_URL", "");
        assertThat(env(container)).as("the Job keeps the secret's JDBC URL").doesNotContainKey("QUARKUS_DATASOURCE_JDBC_URL");
    }

    private static Map<String, Object> env(Map<String, Object> container) {
        Map<String, Object> env = new LinkedHashMap<>();
        for (Map<String, Object> variable : KubernetesManifestsTest.<List<Map<String, Object>>>at(container, "env")) {
            env.put((String) variable.get("name"), variable.get("value"));
        }
        return env;
    }
}
