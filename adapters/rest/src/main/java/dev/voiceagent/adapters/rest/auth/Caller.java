package dev.voiceagent.adapters.rest.auth;

import dev.voiceagent.application.shared.Principal;
import jakarta.enterprise.context.RequestScoped;

/** The authenticated principal of the current request, set by {@link AuthFilter}. */
@RequestScoped
public class Caller {

    private Principal principal;

    void set(Principal principal) {
        this.principal = principal;
    }

    public Principal principal() {
        if (principal == null) {
            throw new IllegalStateException("no authenticated caller on a protected endpoint");
        }
        return principal;
    }
}
