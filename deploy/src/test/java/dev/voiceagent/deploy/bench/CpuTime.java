package dev.voiceagent.deploy.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * CPU time (user + system, from /proc) of the application process and of every PostgreSQL process
 * on the machine (the benchmark's embedded server: postmaster and backends), to say where a
 * request's time goes. Linux clock ticks are 1/100 s.
 */
record CpuTime(long applicationTicks, long postgresTicks) {

    private static final double MS_PER_TICK = 10.0;

    static CpuTime now(long applicationPid) {
        // a backend that ended in between (a pool closing a connection) took its time with it, except into its
        // parent's count of reaped children: the postmaster's cutime and cstime
        long postgres = ProcessHandle.allProcesses()
                .filter(p -> p.info().command().map(c -> c.endsWith("/postgres")).orElse(false))
                .mapToLong(p -> ticks(p.pid()) + reapedTicks(p.pid())).sum();
        return new CpuTime(ticks(applicationPid), postgres);
    }

    CpuTime minus(CpuTime earlier) {
        return new CpuTime(applicationTicks - earlier.applicationTicks, postgresTicks - earlier.postgresTicks);
    }

    double applicationMs() {
        return applicationTicks * MS_PER_TICK;
    }

    double postgresMs() {
        return postgresTicks * MS_PER_TICK;
    }

    /** utime + stime: fields 14 and 15 of /proc/PID/stat, counted after the command's closing parenthesis. */
    static long ticks(long pid) {
        return stat(pid, 11);
    }

    /** cutime + cstime: fields 16 and 17, the time of the children the process waited for. */
    private static long reapedTicks(long pid) {
        return stat(pid, 13);
    }

    private static long stat(long pid, int field) {
        try {
            String stat = Files.readString(Path.of("/proc", String.valueOf(pid), "stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(fields[field]) + Long.parseLong(fields[field + 1]);
        } catch (IOException | RuntimeException gone) {
            return 0; // a process that ended in between
        }
    }
}
