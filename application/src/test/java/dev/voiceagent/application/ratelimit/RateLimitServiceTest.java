package dev.voiceagent.application.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.application.shared.Principal;
import io.smallrye.mutiny.Uni;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The local side of the limiter over a fake shared bucket: leases, spending, expiry and the headers' values. */
class RateLimitServiceTest {

    /** A shared bucket without refill: what the database row does between refills. */
    static final class Bucket implements RateLimitStore {
        double tokens;
        final double rate;
        final int burst;
        final List<Integer> asked = new ArrayList<>();

        Bucket(double tokens, double rate, int burst) {
            this.tokens = tokens;
            this.rate = rate;
            this.burst = burst;
        }

        @Override
        public Uni<Lease> lease(String keyId, long organizationId, double defaultPerSecond, int defaultBurst, int want) {
            asked.add(want);
            int granted = (int) Math.min(Math.floor(tokens), want);
            tokens -= granted;
            return Uni.createFrom().item(new Lease(granted, tokens, rate, burst));
        }
    }

    private static final Principal KEY = new Principal(1, 1, Principal.Method.API_KEY, "api_key:1");
    private final AtomicLong now = new AtomicLong();

    private RateLimitUseCase.Decision admit(RateLimitService service, Principal principal) {
        return service.admit(principal).await().indefinitely();
    }

    @Test
    void aLeaseIsSpentLocallyAndNothingBeyondTheBucketIsAdmitted() {
        Bucket bucket = new Bucket(40, 20, 40);
        RateLimitService service = new RateLimitService(bucket, true, 20, 40, now::get);
        int allowed = 0;
        for (int i = 0; i < 60; i++) {
            if (admit(service, KEY).allowed()) {
                allowed++;
            }
        }
        assertThat(allowed).isEqualTo(40); // exactly the bucket
        assertThat(bucket.asked).first().isEqualTo(2); // a tenth of a second at 20/s
        assertThat(bucket.asked.size()).isLessThan(60); // not a statement per request
        RateLimitUseCase.Decision refused = admit(service, KEY);
        assertThat(refused.allowed()).isFalse();
        assertThat(refused.limit()).isEqualTo(40);
        assertThat(refused.remaining()).isZero();
        assertThat(refused.retryAfterSeconds()).isEqualTo(1);
        assertThat(refused.resetSeconds()).isEqualTo(2); // 40 tokens at 20/s
    }

    @Test
    void leasedTokensExpireAfterASecond() {
        Bucket bucket = new Bucket(1000, 1000, 1000);
        RateLimitService service = new RateLimitService(bucket, true, 1000, 1000, now::get);
        admit(service, KEY); // leases 100, spends 1
        int leases = bucket.asked.size();
        admit(service, KEY);
        assertThat(bucket.asked).hasSize(leases); // spent from the lease
        now.addAndGet(RateLimitService.LEASE_NANOS);
        admit(service, KEY);
        assertThat(bucket.asked).hasSize(leases + 1); // expired: leased again
    }

    @Test
    void tokensAndDisabledLimitsAreNotLimited() {
        Bucket bucket = new Bucket(0, 1, 1);
        assertThat(admit(new RateLimitService(bucket, true, 1, 1, now::get),
                new Principal(1, 1, Principal.Method.TOKEN))).isNull();
        assertThat(admit(new RateLimitService(bucket, false, 1, 1, now::get), KEY)).isNull();
        assertThat(bucket.asked).isEmpty();
    }

    @Test
    void theChunkIsATenthOfASecondAtMostAQuarterOfTheBurstAtLeastOne() {
        assertThat(RateLimitService.chunk(20, 40)).isEqualTo(2);
        assertThat(RateLimitService.chunk(5, 10)).isEqualTo(1);
        assertThat(RateLimitService.chunk(10_000, 100)).isEqualTo(25);
        assertThat(RateLimitService.chunk(1_000, 100_000)).isEqualTo(100);
    }
}
