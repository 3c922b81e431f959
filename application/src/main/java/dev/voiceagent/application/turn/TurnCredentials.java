package dev.voiceagent.application.turn;

import java.util.List;

/** Short-lived credentials for the installation's TURN relay (coturn's REST scheme). */
public record TurnCredentials(String username, String password, long ttl, List<String> uris) {

    public TurnCredentials {
        uris = List.copyOf(uris);
    }
}
