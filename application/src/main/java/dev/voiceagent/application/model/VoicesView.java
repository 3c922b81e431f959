package dev.voiceagent.application.model;

import java.util.List;

/** A provider's voices (filtered as asked) and the distinct genders, accents and languages of all of them. */
public record VoicesView(String provider, List<Voice> voices, List<String> genders, List<String> accents,
        List<String> languages) {
}
