package dev.voiceagent.deploy.k8s;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.voiceagent.deploy.support.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The Grafana dashboard shipped in deploy/k8s reads only what the service serves: every series its queries name is in
 * a fresh replica's /q/metrics (every meter registered at start, its labels' series at 0), and every panel has a query.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class GrafanaDashboardTest {

    private static final Pattern SERIES = Pattern.compile("voiceagent_[a-z_]+");

    @Test
    void everySeriesTheDashboardQueriesIsServed() throws Exception {
        JsonNode dashboard = new ObjectMapper().readTree(Files.readString(Path.of("k8s/grafana-dashboard.json")));
        Set<String> queried = new TreeSet<>();
        List<String> emptyPanels = new ArrayList<>();
        for (JsonNode panel : dashboard.get("panels")) {
            if (panel.path("targets").isEmpty()) {
                emptyPanels.add(panel.path("title").asText());
            }
            for (JsonNode target : panel.path("targets")) {
                Matcher m = SERIES.matcher(target.path("expr").asText());
                while (m.find()) {
                    queried.add(m.group());
                }
            }
        }
        assertThat(emptyPanels).isEmpty();
        assertThat(queried).contains("voiceagent_voice_stage_seconds_bucket", "voiceagent_voice_calls_live");
        String scraped = given().get("/q/metrics").then().statusCode(200).extract().asString();
        Set<String> served = new TreeSet<>();
        scraped.lines().filter(l -> l.startsWith("voiceagent_")).forEach(l -> {
            Matcher m = SERIES.matcher(l);
            if (m.lookingAt()) {
                served.add(m.group());
            }
        });
        assertThat(served).as("series a fresh replica serves").containsAll(queried);
    }
}
