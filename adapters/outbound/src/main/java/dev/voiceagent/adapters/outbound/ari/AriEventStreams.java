package dev.voiceagent.adapters.outbound.ari;

import dev.voiceagent.adapters.outbound.GuardedHttp;
import dev.voiceagent.application.call.FindCallRunUseCase;
import dev.voiceagent.application.call.InboundCallUseCase;
import dev.voiceagent.application.call.ProcessCallReportUseCase;
import dev.voiceagent.application.call.VoiceRuntime;
import dev.voiceagent.application.organization.OrganizationPreferencesRepository;
import dev.voiceagent.application.shared.Leases;
import dev.voiceagent.application.telephony.TelephonyConfigurationRepository;
import dev.voiceagent.domain.telephony.Provider;
import dev.voiceagent.domain.telephony.ProviderConfiguration;
import dev.voiceagent.domain.telephony.TelephonyConfiguration;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.WebSocket;
import io.vertx.core.json.JsonObject;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * The events of every active Asterisk configuration, each held by exactly one replica: at every tick a replica takes
 * the lease of each configuration nobody holds ({@link Leases}) and opens its events WebSocket
 * ({ari_endpoint}/ari/events?app={app_name}&subscribeAll=true, the ARI user's credentials as HTTP Basic, through the
 * address guard), whose events drive the configuration's calls ({@link AriCalls}). A stream that closes, a lease lost
 * with its database session, a configuration changed or gone: the stream is closed, the lease given up, and the next
 * tick (on this or another replica) opens it again; a stream is pinged every tick and one that stops answering (a
 * network that went silent) is dropped the same way; a configuration that cannot be reached is retried with a growing
 * pause (up to five minutes), and said so once per failure streak.
 */
@ApplicationScoped
public class AriEventStreams {

    private static final Logger LOG = Logger.getLogger(AriEventStreams.class);
    private static final Duration MAX_PAUSE = Duration.ofMinutes(5);

    private final Vertx vertx;
    private final GuardedHttp http;
    private final AriRest rest;
    private final Leases leases;
    private final TelephonyConfigurationRepository configurations;
    private final VoiceRuntime runtime;
    private final InboundCallUseCase inbound;
    private final FindCallRunUseCase runs;
    private final ProcessCallReportUseCase reports;
    private final OrganizationPreferencesRepository preferences;
    private final boolean enabled;
    private final Duration interval;
    private final Duration timeout;

    /** One held configuration: its lease, its socket once open. */
    private static final class Held {
        final TelephonyConfiguration configuration;
        final Leases.Lease lease;
        volatile WebSocket socket;
        volatile boolean closed;
        /** When Asterisk last answered a ping (or the socket opened): a silent network is told from a quiet PBX. */
        volatile long lastPongMillis;

        Held(TelephonyConfiguration configuration, Leases.Lease lease) {
            this.configuration = configuration;
            this.lease = lease;
        }
    }

    /** A configuration that could not be reached: when to try again, how many times in a row it failed. */
    private record Pause(long untilMillis, int failures) {
    }

    private final Map<Long, Held> held = new ConcurrentHashMap<>();
    private final Map<Long, Pause> paused = new ConcurrentHashMap<>();
    private volatile long timer = -1;
    private volatile boolean ticking;

    public AriEventStreams(Vertx vertx, GuardedHttp http, AriCallGateway gateway, Leases leases,
            TelephonyConfigurationRepository configurations, VoiceRuntime runtime, InboundCallUseCase inbound,
            FindCallRunUseCase runs, ProcessCallReportUseCase reports, OrganizationPreferencesRepository preferences,
            @ConfigProperty(name = "voiceagent.ari.events.enabled", defaultValue = "true") boolean enabled,
            @ConfigProperty(name = "voiceagent.ari.events.interval", defaultValue = "PT10S") Duration interval,
            @ConfigProperty(name = "voiceagent.ari.timeout", defaultValue = "PT10S") Duration timeout) {
        this.vertx = vertx;
        this.http = http;
        this.rest = gateway.rest();
        this.leases = leases;
        this.configurations = configurations;
        this.runtime = runtime;
        this.inbound = inbound;
        this.runs = runs;
        this.reports = reports;
        this.preferences = preferences;
        this.enabled = enabled;
        this.interval = interval;
        this.timeout = timeout;
    }

    void start(@Observes StartupEvent started) {
        if (enabled) {
            timer = vertx.setPeriodic(200, interval.toMillis(), id -> tick());
        }
    }

    void stop(@Observes ShutdownEvent stopping) {
        if (timer >= 0) {
            vertx.cancelTimer(timer);
        }
        held.keySet().forEach(id -> drop(id, "shutting down").await().atMost(timeout));
    }

    /** One pass: every active configuration held by someone, every held one still wanted and still ours. */
    void tick() {
        if (ticking) {
            return;
        }
        ticking = true;
        configurations.activeOf(Provider.ARI)
                .chain(active -> {
                    Map<Long, TelephonyConfiguration> wanted = active.stream().collect(Collectors.toMap(
                            TelephonyConfiguration::id, c -> c));
                    List<Uni<Void>> work = new ArrayList<>();
                    for (Map.Entry<Long, Held> entry : held.entrySet()) {
                        TelephonyConfiguration now = wanted.get(entry.getKey());
                        Held h = entry.getValue();
                        if (h.closed) {
                            work.add(drop(entry.getKey(), "its stream closed"));
                        } else if (now == null || !now.configuration().equals(h.configuration.configuration())) {
                            work.add(drop(entry.getKey(), now == null ? "it is gone or inactive" : "it changed"));
                        } else if (h.socket != null
                                && System.currentTimeMillis() - h.lastPongMillis > 3 * keepAlive().toMillis()) {
                            work.add(drop(entry.getKey(), "Asterisk stopped answering pings"));
                        } else {
                            if (h.socket != null) {
                                h.socket.writePing(Buffer.buffer("voiceagent"));
                            }
                            work.add(h.lease.held().chain(still -> still ? Uni.createFrom().voidItem()
                                    : drop(entry.getKey(), "its lease was lost")));
                        }
                    }
                    long nowMillis = System.currentTimeMillis();
                    for (TelephonyConfiguration configuration : active) {
                        Pause pause = paused.get(configuration.id());
                        if (!held.containsKey(configuration.id())
                                && (pause == null || pause.untilMillis() <= nowMillis)) {
                            work.add(take(configuration));
                        }
                    }
                    paused.keySet().retainAll(wanted.keySet());
                    return work.isEmpty() ? Uni.createFrom().voidItem()
                            : Uni.join().all(work).andCollectFailures().replaceWithVoid();
                })
                .eventually(() -> ticking = false)
                .subscribe().with(ok -> { }, failure -> LOG.debugf("ARI events tick: %s", failure.toString()));
    }

    private Uni<Void> take(TelephonyConfiguration configuration) {
        return leases.tryAcquire("ari-events:" + configuration.id()).chain(lease -> {
            if (lease.isEmpty()) {
                return Uni.createFrom().voidItem(); // another replica holds it
            }
            Held h = new Held(configuration, lease.get());
            held.put(configuration.id(), h);
            return Uni.createFrom().completionStage(() -> connect(h).toCompletionStage())
                    .invoke(socket -> opened(h, socket))
                    .replaceWithVoid()
                    .onFailure().recoverWithUni(failure -> failed(configuration, failure));
        });
    }

    private io.vertx.core.Future<WebSocket> connect(Held h) {
        ProviderConfiguration.Ari ari = (ProviderConfiguration.Ari) h.configuration.configuration();
        String url = AriRest.base(ari) + "/events?app=" + URLEncoder.encode(ari.appName(), StandardCharsets.UTF_8)
                + "&subscribeAll=true";
        return http.webSocket(url, Map.of("Authorization", AriRest.authorization(ari)), timeout, true);
    }

    /** How often a held stream is pinged (each tick, at least every 10 s' worth): three unanswered and it is dropped. */
    private Duration keepAlive() {
        return interval.compareTo(Duration.ofSeconds(10)) > 0 ? interval : Duration.ofSeconds(10);
    }

    private void opened(Held h, WebSocket socket) {
        long id = h.configuration.id();
        paused.remove(id);
        h.lastPongMillis = System.currentTimeMillis();
        socket.pongHandler(pong -> h.lastPongMillis = System.currentTimeMillis());
        h.socket = socket;
        AriCalls calls = new AriCalls(h.configuration, rest, runtime, inbound, runs, reports, preferences);
        socket.textMessageHandler(text -> {
            JsonObject event;
            try {
                event = new JsonObject(text);
            } catch (RuntimeException notJson) {
                return;
            }
            calls.on(event).subscribe().with(ok -> { }, f -> LOG.debugf("ARI event: %s", f.toString()));
        });
        socket.closeHandler(closed -> {
            if (held.get(id) == h && !h.closed) { // Asterisk (or the network) closed it, not this replica
                LOG.infof("ARI configuration %d: events stream closed; it is opened again at the next tick", id);
                drop(id, "its stream closed").subscribe().with(ok -> { }, f -> { });
            }
        });
        socket.exceptionHandler(failure -> LOG.debugf("ARI configuration %d events: %s", id, failure.toString()));
        LOG.infof("ARI configuration %d (organization %d): events of Stasis application %s held here", id,
                h.configuration.organizationId(), ((ProviderConfiguration.Ari) h.configuration.configuration())
                        .appName());
    }

    private Uni<Void> failed(TelephonyConfiguration configuration, Throwable failure) {
        long id = configuration.id();
        Pause before = paused.get(id);
        int failures = before == null ? 1 : before.failures() + 1;
        long pause = Math.min(MAX_PAUSE.toMillis(), interval.toMillis() * (1L << Math.min(failures - 1, 10)));
        paused.put(id, new Pause(System.currentTimeMillis() + pause, failures));
        if (failures == 1) {
            LOG.warnf("ARI configuration %d (organization %d): events stream not opened (%s); retried with a growing"
                    + " pause", id, configuration.organizationId(), failure.getMessage());
        }
        return drop(id, "it could not be opened");
    }

    private Uni<Void> drop(long id, String why) {
        Held h = held.remove(id);
        if (h == null) {
            return Uni.createFrom().voidItem();
        }
        h.closed = true;
        LOG.debugf("ARI configuration %d: events let go (%s)", id, why);
        WebSocket socket = h.socket;
        if (socket != null && !socket.isClosed()) {
            socket.close();
        }
        return h.lease.release();
    }
}
