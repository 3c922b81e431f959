package dev.voiceagent.application.voice.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RecordedPromptsTest {

    @Test
    void theCacheKeepsTheMostRecentlyPlayedPromptsWithinItsBytes() {
        RecordedPrompts.Cache cache = new RecordedPrompts.Cache(1_000);
        cache.put("a", new byte[400]);
        cache.put("b", new byte[400]);
        assertThat(cache.get("a")).hasSize(400); // a is now the most recently played
        cache.put("c", new byte[400]);
        assertThat(cache.get("b")).as("the least recently played went").isNull();
        assertThat(cache.get("a")).isNotNull();
        assertThat(cache.get("c")).isNotNull();
        cache.put("c", new byte[100]); // replaced: its bytes counted once
        cache.put("d", new byte[450]);
        assertThat(cache.size()).isEqualTo(3);
        cache.put("huge", new byte[5_000]);
        assertThat(cache.get("huge")).as("larger than the cache: kept alone until the next").isNotNull();
        assertThat(cache.size()).isEqualTo(1);
    }
}
