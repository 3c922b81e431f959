package dev.voiceagent.deploy.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Dockerfile.jvm runs the JVM with deploy/pom.xml's image.jvm-options, the flags the integration tests
 * train the AOT cache with and the benchmarks measure. A JVM refuses a cache recorded with other
 * object-header settings (a replica then starts in ≈ 3.7 s instead of ≈ 1.7 s on the build machines, saying
 * so only in its log), so the image's flags and the training's may not drift apart.
 */
class ImageJvmOptionsTest {

    @Test
    void theImageRunsTheJvmWithTheFlagsTheAotCacheIsTrainedWith() throws Exception {
        String trained = System.getProperty("image.jvm-options");
        assertThat(trained).as("surefire passes deploy/pom.xml's image.jvm-options").isNotBlank();

        String entrypoint = Files.readAllLines(Path.of("Dockerfile.jvm")).stream()
                .filter(line -> line.startsWith("ENTRYPOINT ")).findFirst()
                .orElseThrow(() -> new AssertionError("Dockerfile.jvm has no ENTRYPOINT"))
                .substring("ENTRYPOINT ".length());
        List<String> command = Arrays.asList(new ObjectMapper().readValue(entrypoint, String[].class));
        assertThat(command).as("exec form: java, the cache, the flags, -jar")
                .startsWith("java", "-XX:AOTCache=/app/app.aot").contains("-jar");

        List<String> flags = command.subList(2, command.indexOf("-jar")).stream()
                .filter(argument -> !argument.startsWith("-D")).toList();
        assertThat(flags).as("Dockerfile.jvm's JVM flags against image.jvm-options")
                .containsExactly(trained.trim().split("\\s+"));
    }
}
