package dev.voiceagent.deploy.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** wrk, the HTTP load generator (Debian's package): installed when missing, run, and its report parsed. */
final class Wrk {

    private static final Pattern REQUESTS = Pattern.compile("(\\d+) requests in ([\\d.]+)(\\w+),");
    private static final Pattern RATE = Pattern.compile("Requests/sec:\\s+([\\d.]+)");
    private static final Pattern PERCENTILE = Pattern.compile("^\\s+(50|90|99)%\\s+([\\d.]+)(us|ms|s)\\s*$",
            Pattern.MULTILINE);
    private static final Pattern NON_2XX = Pattern.compile("Non-2xx or 3xx responses: (\\d+)");
    private static final Pattern SOCKET_ERRORS = Pattern.compile(
            "Socket errors: connect (\\d+), read (\\d+), write (\\d+), timeout (\\d+)");

    /** One run: requests per second, latency percentiles in milliseconds, and errors (non-2xx and socket). */
    record Result(long requests, double perSecond, double p50, double p90, double p99, long errors) {

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%.0f req/s, p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, %d errors",
                    perSecond, p50, p90, p99, errors);
        }

        /** Each figure's own median over the rounds. */
        static Result median(List<Result> results) {
            return new Result(middle(results, r -> (double) r.requests()).longValue(),
                    middle(results, Result::perSecond), middle(results, Result::p50), middle(results, Result::p90),
                    middle(results, Result::p99), results.stream().mapToLong(Result::errors).sum());
        }

        private static Double middle(List<Result> results, Function<Result, Double> figure) {
            List<Double> sorted = results.stream().map(figure).sorted(Comparator.naturalOrder()).toList();
            return sorted.get(sorted.size() / 2);
        }
    }

    /** The path of wrk, installing Debian's package first when it is not on the PATH. */
    static String ensureInstalled() throws IOException, InterruptedException {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
            if (Files.isExecutable(Path.of(dir, "wrk"))) {
                return Path.of(dir, "wrk").toString();
            }
        }
        System.out.println("wrk not found: installing Debian's package (apt-get install wrk)");
        String sudo = "root".equals(System.getProperty("user.name")) ? "" : "sudo ";
        int exit = new ProcessBuilder("sh", "-c", sudo + "apt-get install -y -q wrk || (" + sudo + "apt-get update -q && "
                + sudo + "apt-get install -y -q wrk)").inheritIO().start().waitFor();
        if (exit != 0 || !Files.isExecutable(Path.of("/usr/bin/wrk"))) {
            throw new IllegalStateException("could not install wrk (apt-get exited " + exit + ")");
        }
        return "/usr/bin/wrk";
    }

    static Result run(String wrk, String url, String apiKey, int threads, int connections, int seconds)
            throws IOException, InterruptedException {
        Process process = new ProcessBuilder(wrk, "--latency", "-t" + threads, "-c" + connections, "-d" + seconds + "s",
                "-H", "X-API-Key: " + apiKey, url).redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (process.waitFor() != 0) {
            throw new IllegalStateException("wrk failed:\n" + out);
        }
        return parse(out);
    }

    static Result parse(String out) {
        Matcher requests = REQUESTS.matcher(out);
        Matcher rate = RATE.matcher(out);
        if (!requests.find() || !rate.find()) {
            throw new IllegalStateException("unexpected wrk output:\n" + out);
        }
        double[] percentiles = new double[3];
        List<String> seen = new ArrayList<>();
        Matcher p = PERCENTILE.matcher(out);
        while (p.find()) {
            double value = Double.parseDouble(p.group(2));
            double ms = switch (p.group(3)) {
                case "us" -> value / 1000;
                case "s" -> value * 1000;
                default -> value;
            };
            percentiles[switch (p.group(1)) { case "50" -> 0; case "90" -> 1; default -> 2; }] = ms;
            seen.add(p.group(1));
        }
        if (seen.size() != 3) {
            throw new IllegalStateException("no latency distribution in wrk's output:\n" + out);
        }
        long errors = 0;
        Matcher non2xx = NON_2XX.matcher(out);
        if (non2xx.find()) {
            errors += Long.parseLong(non2xx.group(1));
        }
        Matcher socket = SOCKET_ERRORS.matcher(out);
        if (socket.find()) {
            for (int i = 1; i <= 4; i++) {
                errors += Long.parseLong(socket.group(i));
            }
        }
        return new Result(Long.parseLong(requests.group(1)), Double.parseDouble(rate.group(1)), percentiles[0],
                percentiles[1], percentiles[2], errors);
    }

    private Wrk() {
    }
}
