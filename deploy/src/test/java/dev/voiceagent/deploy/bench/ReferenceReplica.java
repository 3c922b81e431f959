package dev.voiceagent.deploy.bench;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;

/**
 * The reference system's campaign list (Dograh's own handler on uvicorn, in a Debian trixie chroot) served by
 * {@code src/test/resources/reference/dograh/serve.sh} against a database of its own on the PostgreSQL server the
 * benchmark runs, seeded with the same campaigns as ours. Its processes (uvicorn and a process per worker) are
 * measured as one: CPU time and resident memory summed over the tree.
 */
final class ReferenceReplica implements AutoCloseable {

    static final String API_KEY = "dgr_bench_key_0001";
    private static final Path SCRIPT = Path.of("src/test/resources/reference/dograh/serve.sh");

    final String base;
    final int workers;
    private final long pid;

    private ReferenceReplica(String base, int workers, long pid) {
        this.base = base;
        this.workers = workers;
        this.pid = pid;
    }

    /** Serves the reference's list on a free port against the server at {@code postgresPort}; seconds to set up. */
    static ReferenceReplica start(int postgresPort, int campaigns, int workers) throws Exception {
        if (!Files.isExecutable(SCRIPT)) {
            throw new IllegalStateException(SCRIPT.toAbsolutePath() + " not found (run from deploy/)");
        }
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        ProcessBuilder builder = new ProcessBuilder("bash", SCRIPT.toString(), "start").redirectErrorStream(true);
        builder.environment().putAll(Map.of("PGPORT", String.valueOf(postgresPort), "APIPORT", String.valueOf(port),
                "WORKERS", String.valueOf(workers), "CAMPAIGNS", String.valueOf(campaigns)));
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(15, TimeUnit.MINUTES) || process.exitValue() != 0) {
            throw new IllegalStateException("the reference did not start: " + output);
        }
        String pidLine = output.lines().filter(l -> l.startsWith("pid ")).reduce((a, b) -> b)
                .orElseThrow(() -> new IllegalStateException("serve.sh said no pid: " + output));
        return new ReferenceReplica("http://127.0.0.1:" + port, workers, Long.parseLong(pidLine.substring(4).trim()));
    }

    /** The CPU time of uvicorn and its workers (as {@link CpuTime#now}'s application share), and PostgreSQL's. */
    CpuTime cpu() {
        return new CpuTime(tree().map(CpuTime::ticks).sum(), CpuTime.now(pid).postgresTicks());
    }

    /** Resident memory of uvicorn and its workers, in kB. */
    long rssKb() {
        return tree().map(ReferenceReplica::rss).sum();
    }

    private LongStream tree() {
        return LongStream.concat(LongStream.of(pid), ProcessHandle.of(pid).stream()
                .flatMap(ProcessHandle::descendants).mapToLong(ProcessHandle::pid));
    }

    private static long rss(long pid) {
        try {
            List<String> status = Files.readAllLines(Path.of("/proc", String.valueOf(pid), "status"));
            return status.stream().filter(l -> l.startsWith("VmRSS:")).mapToLong(l -> Long.parseLong(
                    l.replaceAll("\\D", ""))).sum();
        } catch (IOException | RuntimeException gone) {
            return 0;
        }
    }

    @Override
    public void close() throws Exception {
        new ProcessBuilder("bash", SCRIPT.toString(), "stop").inheritIO().start().waitFor(30, TimeUnit.SECONDS);
    }
}
