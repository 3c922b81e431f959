package dev.voiceagent.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.application.voice.runtime.VoiceSessions;
import dev.voiceagent.deploy.support.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The warm-up's whole calls, on the replica's own beans: FreeTTS callers on the phone and in the browser through the
 * media sockets, voice activity, the session and the replica's Deepgram, OpenAI and ElevenLabs adapters against the
 * rehearsal's stand-ins.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class RehearsedCallsTest {

    @Inject
    RehearsedCalls calls;

    @Inject
    VoiceSessions live;

    @Test
    void everyRehearsedCallTalksItsWholeScriptWithABargeInAndLeavesNoLiveCallBehind() throws Exception {
        RehearsedCalls.Report report = calls.run(2, 2, Duration.ofSeconds(40)); // browsers: one plain, one WebRTC

        assertThat(report.ended()).as(report.summary()).isEqualTo(4);
        assertThat(report.reasons()).isEqualTo(Map.of("user_hangup", 4));
        // each caller's three lines heard, each answered, and the greeting: 4 answers a call
        assertThat(report.transcripts()).as(report.summary()).isEqualTo(4 * RehearsedCalls.LINES.size());
        assertThat(report.answers()).as(report.summary()).isEqualTo(4 * RehearsedCalls.REPLIES.size());
        assertThat(report.sentences()).as(report.summary()).isGreaterThanOrEqualTo(4 * RehearsedCalls.REPLIES.size());
        // the third line is said over the agent's long answer: a barge-in on every call
        assertThat(report.interruptions()).as(report.summary()).isGreaterThanOrEqualTo(4);
        assertThat(live.count()).isZero(); // a rehearsed call is no call of the replica's
    }
}
