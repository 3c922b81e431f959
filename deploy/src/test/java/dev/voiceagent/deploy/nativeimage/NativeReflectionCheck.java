package dev.voiceagent.deploy.nativeimage;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.voiceagent.domain.model.ModelCatalog;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipFile;

/**
 * Run after the native sources-only build ({@code ./mvnw -B -Pnative-sources -DskipTests verify},
 * which .ci/run runs): reads the reflection and resource configuration the build generated for native-image
 * ({@code META-INF/native-image/reflect-config.json} and {@code resource-config.json} in
 * {@code target/native-sources/*-runner.jar}) and fails unless
 * <ul>
 *   <li>every record of the adapters, which are the JSON bodies Jackson reads and writes by
 *       reflection, is registered with its constructors, methods and fields (Quarkus registers
 *       those it sees in resource signatures; the others need {@code @RegisterForReflection}),
 *   <li>every JAX-RS resource class is registered with its methods (the error mapper reads their
 *       parameter annotations to place a 422 at [path|query|header, name]), and
 *   <li>every class-path resource the code reads by name ({@link #RESOURCES}) is included in the image
 *       ({@code quarkus.native.resources.includes}): a native image carries only the resources named.
 * </ul>
 * In a JVM build none of this matters, which is why only the native configuration can show it.
 */
public final class NativeReflectionCheck {

    /** Records that are never (de)serialized, with the reason. */
    private static final Map<String, String> NOT_JSON = Map.ofEntries(
            Map.entry("dev.voiceagent.adapters.postgres.campaign.PostgresDispatchLedger$PgSession", 
                    "a database session holder"),
            Map.entry("dev.voiceagent.adapters.rest.shared.StrictParamConverters$Converter", 
                    "a JAX-RS parameter converter"),
            Map.entry("dev.voiceagent.adapters.rest.workflow.RunPageParameters", "query parameters parsed by hand"),
            Map.entry("dev.voiceagent.adapters.outbound.GuardedHttp$Reply", 
                    "a provider's status and body, read as text"),
            Map.entry("dev.voiceagent.adapters.outbound.ChatTargets$Target", "a chat completions URL and its headers"),
            Map.entry("dev.voiceagent.adapters.outbound.ProviderChecks$Base", 
                    "a provider's base URL and whether it is guarded"),
            Map.entry("dev.voiceagent.adapters.outbound.GuardedHttp$Exchange", 
                    "an outbound answer: status, headers, body bytes"),
            Map.entry("dev.voiceagent.adapters.outbound.EmbeddingsClient$Target", "an embeddings URL and its headers"),
            Map.entry("dev.voiceagent.adapters.payments.StripePayments$Settings",
                    "the Stripe adapter's configuration"),
            Map.entry("dev.voiceagent.adapters.simulator.FreeTts$Pcm", "synthesized samples and their rate"),
            Map.entry("dev.voiceagent.adapters.simulator.SpokenLines$Heard",
                    "a simulated callee's line and whether a frame ends it"),
            Map.entry("dev.voiceagent.adapters.rest.embed.EmbedCors$Preflight",
                    "a widget path's CORS preflight: its methods and whose domains decide it"),
            Map.entry("dev.voiceagent.adapters.postgres.lease.PostgresLeases$Held",
                    "a held lease: its database connection and key"));

    /**
     * Packages whose records are never (de)serialized, with the reason. The check proves the reason: a class of
     * such a package that reaches Jackson's data binding (or Vert.x's bridges to it) is reported.
     */
    private static final Map<String, String> NOT_JSON_PACKAGES = Map.of(
            "dev.voiceagent.adapters.media",
            "the media adapter reads and writes carriers' and browsers' messages field by field with Vert.x's"
                    + " JsonObject; its records are call events and frames, never bound",
            "dev.voiceagent.adapters.outbound.ari",
            "Asterisk's events and answers are read field by field with Vert.x's JsonObject, VICIdial's as text; its"
                    + " records are retry pauses and VICIdial's outcomes, never bound",
            "dev.voiceagent.adapters.outbound.tracing",
            "traces go out in OTLP's protobuf encoding (OpenTelemetry's own marshalers); its records are an open"
                    + " trace and a Langfuse project held in memory, never bound",
            "dev.voiceagent.adapters.outbound.speech",
            "the speech providers' messages are read and written field by field with Vert.x's JsonObject (Google's"
                    + " as its protobuf messages); its records are a call's connection targets held in memory, never"
                    + " bound");

    /** What binds a record to JSON by reflection: Jackson's data binding and Vert.x's methods that call it. */
    private static final Set<String> BINDING_METHODS = Set.of("mapTo", "mapFrom", "decodeValue");

    /** Class-path resources read by name at run time: the model catalog, the documentation assistant's sources. */
    static final List<String> RESOURCES = List.of(
            ModelCatalog.class.getPackageName().replace('.', '/') + "/" + ModelCatalog.RESOURCE,
            "docs/README.md", "docs/openapi.json");

    public static void main(String[] args) throws Exception {
        Path nativeSources = Path.of(args.length > 0 ? args[0] : "deploy/target/native-sources");
        Path runner = runner(nativeSources);
        Map<String, JsonNode> registered = registrations(runner);
        Set<String> problems = new TreeSet<>();
        var classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.voiceagent.adapters");
        int records = 0;
        int resources = 0;
        for (JavaClass type : classes) {
            String notJsonPackage = notJsonPackage(type);
            if (notJsonPackage != null && bindsJson(type)) {
                problems.add(type.getName() + ": binds JSON by reflection, but its package " + notJsonPackage
                        + " is listed as never binding: drop the package from NOT_JSON_PACKAGES or bind by hand");
            }
            if (type.isRecord() && !NOT_JSON.containsKey(type.getName()) && notJsonPackage == null) {
                records++;
                JsonNode entry = registered.get(type.getName());
                for (String need : List.of("allDeclaredConstructors", "allDeclaredMethods", "allDeclaredFields")) {
                    if (entry == null || !entry.path(need).asBoolean()) {
                        problems.add(type.getName() + ": JSON record without " + need
                                + " for reflection (add @RegisterForReflection)");
                    }
                }
            }
            if (type.isAnnotatedWith("jakarta.ws.rs.Path") && !type.isInterface()) { // interfaces: REST clients
                resources++;
                JsonNode entry = registered.get(type.getName());
                if (entry == null || !entry.path("allDeclaredMethods").asBoolean()) {
                    problems.add(type.getName() + ": resource class without its methods registered for reflection");
                }
            }
        }
        if (records < 50 || resources < 10) {
            problems.add("found only " + records + " JSON records and " + resources
                    + " resource classes in dev.voiceagent.adapters: is the class path complete?");
        }
        for (String notJson : NOT_JSON.keySet()) {
            if (!classes.contain(notJson)) {
                problems.add(notJson + " is listed as not JSON but no longer exists: drop it from the list");
            }
        }
        List<Pattern> included = includedResources(runner);
        for (String resource : RESOURCES) {
            if (included.stream().noneMatch(pattern -> pattern.matcher(resource).matches())) {
                problems.add(resource + ": read by name but not included in the native image (add it to"
                        + " quarkus.native.resources.includes)");
            }
        }
        if (!problems.isEmpty()) {
            problems.forEach(problem -> System.err.println("native reflection: " + problem));
            System.exit(1);
        }
        System.out.printf("native reflection: %d JSON records and %d resource classes registered (%d entries in %s);"
                + " %d named resources included%n", records, resources, registered.size(), nativeSources,
                RESOURCES.size());
    }

    private static String notJsonPackage(JavaClass type) {
        return NOT_JSON_PACKAGES.keySet().stream()
                .filter(p -> type.getPackageName().equals(p) || type.getPackageName().startsWith(p + "."))
                .findFirst().orElse(null);
    }

    private static boolean bindsJson(JavaClass type) {
        boolean jackson = type.getDirectDependenciesFromSelf().stream()
                .anyMatch(d -> d.getTargetClass().getPackageName().startsWith("com.fasterxml.jackson.databind"));
        boolean bridge = type.getMethodCallsFromSelf().stream()
                .anyMatch(call -> call.getTargetOwner().getPackageName().startsWith("io.vertx.core.json")
                        && BINDING_METHODS.contains(call.getName()));
        return jackson || bridge;
    }

    private static Path runner(Path nativeSources) throws Exception {
        try (Stream<Path> files = Files.list(nativeSources)) {
            return files.filter(f -> f.getFileName().toString().endsWith("-runner.jar")).findFirst()
                    .orElseThrow(() -> new IllegalStateException("no *-runner.jar in " + nativeSources
                            + ": run the native sources-only build first"));
        }
    }

    /** The include patterns of the image's resource configuration (regular expressions on resource paths). */
    private static List<Pattern> includedResources(Path runner) throws Exception {
        List<Pattern> patterns = new ArrayList<>();
        try (ZipFile jar = new ZipFile(runner.toFile());
                InputStream in = jar.getInputStream(jar.getEntry("META-INF/native-image/resource-config.json"))) {
            for (JsonNode include : new ObjectMapper().readTree(in).path("resources").path("includes")) {
                patterns.add(Pattern.compile(include.path("pattern").asText()));
            }
        }
        return patterns;
    }

    private static Map<String, JsonNode> registrations(Path runner) throws Exception {
        Map<String, JsonNode> byName = new HashMap<>();
        try (ZipFile jar = new ZipFile(runner.toFile());
                InputStream in = jar.getInputStream(jar.getEntry("META-INF/native-image/reflect-config.json"))) {
            for (JsonNode entry : new ObjectMapper().readTree(in)) {
                byName.merge(entry.path("name").asText(), entry, NativeReflectionCheck::union);
            }
        }
        return byName;
    }

    /** A class may be registered by several build steps: what any of them grants counts. */
    private static JsonNode union(JsonNode a, JsonNode b) {
        var merged = ((com.fasterxml.jackson.databind.node.ObjectNode) a.deepCopy());
        b.fields().forEachRemaining(field -> {
            if (field.getValue().isBoolean() && field.getValue().asBoolean()) {
                merged.put(field.getKey(), true);
            }
        });
        return merged;
    }
}
