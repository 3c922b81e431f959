package dev.voiceagent.application.model;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.application.shared.ResourceNotFoundException;
import dev.voiceagent.domain.model.ModelService;
import dev.voiceagent.domain.shared.DomainRuleViolation;
import io.smallrye.mutiny.Uni;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * A provider's voice catalog with the organization's own key when its text-to-speech uses that provider.
 * Kept a few minutes per organization, provider and key on each replica (a cache that is safe to lose).
 */
@Singleton
public class ListVoicesService implements ListVoicesUseCase {

    static final Duration KEPT = Duration.ofMinutes(5);
    private static final int MAX_ENTRIES = 10_000;

    private record Key(long organizationId, String provider, int keys) {
    }

    private record Entry(List<Voice> voices, Instant until) {
    }

    /** The reference's name for the installation's managed models. */
    static final String MANAGED = "dograh";
    static final String SIMULATOR = "simulator";
    /** The simulator text-to-speech speaks with one voice, built in. */
    static final List<Voice> SIMULATOR_VOICES = List.of(new Voice("kevin16", "Kevin",
            "FreeTTS's built-in voice (the simulator text-to-speech)", "american", "male", "en", null));

    private final ModelConfigurations configurations;
    private final VoiceCatalog catalog;
    private final Clock clock;
    private final ManagedModels managed;
    private final Map<Key, Entry> cache = new ConcurrentHashMap<>();

    public ListVoicesService(ModelConfigurations configurations, VoiceCatalog catalog, Clock clock,
            ManagedModels managed) {
        this.managed = managed;
        this.configurations = configurations;
        this.catalog = catalog;
        this.clock = clock;
    }

    /**
     * The managed provider's voices ("dograh", which the reference dashboard asks for on every editor load): the
     * managed models are an OpenAI-compatible endpoint, so OpenAI's voices; none when the installation manages no models.
     */
    private Uni<VoicesView> managedVoices(Filters filters) {
        if (!managed.available()) {
            return Uni.createFrom().item(view(MANAGED, List.of(), filters));
        }
        return catalog.voices("openai", null).map(found -> view(MANAGED, found.orElse(List.of()), filters));
    }

    @Override
    public Uni<VoicesView> voices(Principal principal, String provider, Filters filters) {
        if (MANAGED.equals(provider)) {
            return managedVoices(filters);
        }
        if (SIMULATOR.equals(provider)) {
            return Uni.createFrom().item(view(SIMULATOR, SIMULATOR_VOICES, filters));
        }
        return configurations.resolve(principal.organizationId(), principal.userId()).chain(resolved -> {
            ModelEndpoint endpoint = own(resolved, provider);
            Key key = new Key(principal.organizationId(), provider,
                    endpoint == null ? 0 : Objects.hash(endpoint.apiKeys(), endpoint.baseUrl()));
            Instant now = clock.instant();
            Entry cached = cache.get(key);
            if (cached != null && now.isBefore(cached.until())) {
                return Uni.createFrom().item(cached.voices());
            }
            return catalog.voices(provider, endpoint).map(found -> found.orElseThrow(() ->
                    new ResourceNotFoundException("Voices of '" + provider + "' are not available: it is not a"
                            + " text-to-speech provider of the catalog"))).invoke(voices -> {
                                if (cache.size() >= MAX_ENTRIES) {
                                    cache.clear();
                                }
                                cache.put(key, new Entry(voices, now.plus(KEPT)));
                            });
        }).map(all -> view(provider, all, filters));
    }

    /** The organization's text-to-speech endpoint when it uses this provider (its key, its base URL). */
    private static ModelEndpoint own(ResolvedModels resolved, String provider) {
        try {
            Optional<ModelEndpoint> tts = resolved.endpoint(ModelService.TTS);
            return tts.filter(e -> e.provider().equals(provider)).orElse(null);
        } catch (DomainRuleViolation managedUnavailable) {
            return null;
        }
    }

    static VoicesView view(String provider, List<Voice> all, Filters f) {
        List<Voice> voices = all.stream()
                .filter(v -> matches(f.language(), v.language()) && matches(f.gender(), v.gender())
                        && matches(f.accent(), v.accent()))
                .filter(v -> f.text() == null || f.text().isBlank() || contains(v.name(), f.text())
                        || contains(v.description(), f.text()) || contains(v.voiceId(), f.text()))
                .toList();
        return new VoicesView(provider, voices, facet(all, Voice::gender), facet(all, Voice::accent),
                facet(all, Voice::language));
    }

    private static boolean matches(String wanted, String actual) {
        return wanted == null || wanted.isBlank() || actual != null && actual.toLowerCase(Locale.ROOT)
                .startsWith(wanted.strip().toLowerCase(Locale.ROOT));
    }

    private static boolean contains(String value, String text) {
        return value != null && value.toLowerCase(Locale.ROOT).contains(text.strip().toLowerCase(Locale.ROOT));
    }

    private static List<String> facet(List<Voice> voices, Function<Voice, String> of) {
        TreeSet<String> values = new TreeSet<>();
        voices.stream().map(of).filter(v -> v != null && !v.isBlank()).forEach(values::add);
        return List.copyOf(values);
    }
}
