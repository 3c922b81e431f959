package dev.voiceagent.domain.telephony;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A PBX an Asterisk configuration's calls come through (its {@code external_pbx}): VICIdial, whose remote agents this
 * service's calls are. Its agent API ({@code agc/api.php}) hangs a call up and transfers it to an in-group; its optional
 * non-agent API ({@code non_agent_api.php}) updates the call's lead with the values the workflow maps
 * ({@code external_pbx_field_mappings}). Passwords are secrets: sealed with the configuration, masked on output.
 *
 * @param nonAgentApi null when lead updates are not wanted
 * @param timeoutSeconds each request's limit, 1 to 30
 */
public record ExternalPbx(Api agentApi, Api nonAgentApi, int timeoutSeconds) {

    /** A VICIdial API: its URL, user and password, and the source tag its requests carry. */
    public record Api(String url, String username, String password, String source) {

        public Map<String, Object> fields() {
            Map<String, Object> map = new LinkedHashMap<>();
            map.put("url", url);
            map.put("username", username);
            map.put("password", password);
            map.put("source", source);
            return map;
        }
    }

    public static final String TYPE = "vicidial";
    /** Where each API's password sits in the configuration's fields (masked on output, kept when sent back masked). */
    public static final List<String> SECRET_PATHS = List.of("agent_api.password", "non_agent_api.password");
    /** A lead field VICIdial takes: a letter then letters, digits or underscores, at most 64. */
    public static final Pattern FIELD = Pattern.compile("^[A-Za-z][A-Za-z0-9_]{0,63}$");
    /** Names update_lead uses itself, never a mapped field. */
    public static final Set<String> RESERVED = Set.of("source", "user", "pass", "function", "lead_id", "format",
            "custom_fields");

    public ExternalPbx {
        if (agentApi == null) {
            throw new DomainRuleViolation("external_pbx.agent_api is required (url, username, password)");
        }
        if (timeoutSeconds < 1 || timeoutSeconds > 30) {
            throw new DomainRuleViolation("external_pbx.timeout_seconds must be between 1 and 30");
        }
    }

    /** The external PBX of a configuration's fields ({@code external_pbx}); null when there is none. */
    public static ExternalPbx parse(Object raw) {
        if (raw == null) {
            return null;
        }
        if (!(raw instanceof Map<?, ?> fields)) {
            throw new DomainRuleViolation("external_pbx must be an object");
        }
        Object type = fields.get("type");
        if (type != null && !TYPE.equals(type)) {
            throw new DomainRuleViolation("external_pbx.type must be vicidial");
        }
        Api agent = api(fields.get("agent_api"), "agent_api", true);
        Api nonAgent = api(fields.get("non_agent_api"), "non_agent_api", false);
        Object timeout = fields.get("timeout_seconds");
        int seconds = timeout == null ? 8 : timeout instanceof Number n && n.doubleValue() == n.intValue()
                ? n.intValue() : -1;
        return new ExternalPbx(agent, nonAgent, seconds);
    }

    private static Api api(Object raw, String name, boolean required) {
        if (raw == null) {
            if (required) {
                throw new DomainRuleViolation("external_pbx." + name + " is required (url, username, password)");
            }
            return null;
        }
        if (!(raw instanceof Map<?, ?> fields)) {
            throw new DomainRuleViolation("external_pbx." + name + " must be an object");
        }
        String url = text(fields.get("url"));
        String username = text(fields.get("username"));
        String password = text(fields.get("password"));
        if (!required && url == null && username == null && password == null) {
            return null;
        }
        if (url == null || username == null || password == null) {
            throw new DomainRuleViolation("external_pbx." + name + " needs url, username and password");
        }
        URI uri;
        try {
            uri = URI.create(url);
        } catch (IllegalArgumentException e) {
            throw new DomainRuleViolation("external_pbx." + name + ".url must be an http(s) URL");
        }
        if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme()) || uri.getHost() == null) {
            throw new DomainRuleViolation("external_pbx." + name + ".url must be an http(s) URL");
        }
        String source = text(fields.get("source"));
        return new Api(url, username, password, source == null ? "voiceagent" : source);
    }

    private static String text(Object value) {
        if (value == null) {
            return null;
        }
        if (!(value instanceof String s)) {
            throw new DomainRuleViolation("external_pbx fields must be strings");
        }
        return s.isBlank() ? null : s.strip();
    }

    public Map<String, Object> fields() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("type", TYPE);
        map.put("agent_api", agentApi.fields());
        if (nonAgentApi != null) {
            map.put("non_agent_api", nonAgentApi.fields());
        }
        map.put("timeout_seconds", timeoutSeconds);
        return map;
    }
}
