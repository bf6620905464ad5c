// bench-floor: the C floor of `plugin-host bench`.
//
// Forks an echo child and measures round trips and pipelined throughput of
// fixed-size lines between the two processes over a pair of pipes, with nothing
// but read(2) and write(2) on either side: what the pipe costs with no work at
// either end. The echo child reads what is there (up to 64 KiB) and writes it
// back in one write, the syscall pattern of the plugin (and of its Swift
// `--echo` floor); the measuring parent writes as many lines as it may have in
// flight in one write and counts the newlines that come back.
//
// The bench drives it on its stdin, one command a line, so that it can
// interleave these measurements with its own:
//
//   seq COUNT WARMUP     COUNT timed round trips of one line (after WARMUP
//                        untimed ones); answers one line of COUNT nanosecond
//                        timings, separated by spaces
//   pipe WINDOW TOTAL    TOTAL lines with up to WINDOW in flight; answers the
//                        elapsed nanoseconds
//
// EOF on stdin ends the child and the program.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char usage[] =
    "usage: bench-floor [--host-cpu N] [--echo-cpu N] [--line-bytes N]\n"
    "\n"
    "The C floor of plugin-host bench: forks an echo child and measures pipe round\n"
    "trips and pipelined echo of fixed-size lines. Commands on stdin, one a line:\n"
    "  seq COUNT WARMUP     prints COUNT round-trip times in nanoseconds\n"
    "  pipe WINDOW TOTAL    prints the nanoseconds TOTAL lines took, WINDOW in flight\n"
    "\n"
    "  --host-cpu N     pin the measuring process to CPU N (default: not pinned)\n"
    "  --echo-cpu N     pin the echo child to CPU N (default: not pinned)\n"
    "  --line-bytes N   line length including its newline (default 82)\n";

enum { chunk = 1 << 16 };

static void die(const char *what) {
    fprintf(stderr, "bench-floor: %s: %s\n", what, strerror(errno));
    exit(1);
}

static void pin(int cpu) {
    if (cpu < 0) return;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    if (sched_setaffinity(0, sizeof set, &set) != 0) die("sched_setaffinity");
}

static int write_all(int fd, const char *bytes, size_t count) {
    while (count > 0) {
        ssize_t n = write(fd, bytes, count);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return -1;
        bytes += n;
        count -= (size_t)n;
    }
    return 0;
}

/// The child: copies `in` to `out` a read at a time until EOF.
static void echo(int in, int out) {
    static char buffer[chunk];
    for (;;) {
        ssize_t n = read(in, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0 || write_all(out, buffer, (size_t)n) != 0) _exit(0);
    }
}

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int to_echo, from_echo;
static char *lines;  // as many lines as the largest window, back to back
static size_t line_bytes = 82;
static long lines_capacity;
static char input[chunk];

/// Reads what the echo has sent back; returns the number of newlines in it.
static long read_lines(void) {
    for (;;) {
        ssize_t n = read(from_echo, input, sizeof input);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            fprintf(stderr, "bench-floor: the echo child is gone\n");
            exit(1);
        }
        long count = 0;
        for (const char *p = input, *end = input + n; (p = memchr(p, '\n', (size_t)(end - p))) != NULL; p++) count++;
        return count;
    }
}

static void ensure_lines(long count) {
    if (count <= lines_capacity) return;
    free(lines);
    lines = malloc((size_t)count * line_bytes);
    if (lines == NULL) die("malloc");
    for (long i = 0; i < count; i++) {
        memset(lines + i * line_bytes, 'x', line_bytes - 1);
        lines[(i + 1) * line_bytes - 1] = '\n';
    }
    lines_capacity = count;
}

/// One round trip: a line out, wait until its echo is back.
static void round_trip(void) {
    if (write_all(to_echo, lines, line_bytes) != 0) die("write");
    while (read_lines() == 0) {}
}

static void sequential(long count, long warmup) {
    ensure_lines(1);
    for (long i = 0; i < warmup; i++) round_trip();
    uint64_t *samples = malloc((size_t)(count > 0 ? count : 1) * sizeof *samples);
    if (samples == NULL) die("malloc");
    for (long i = 0; i < count; i++) {
        uint64_t start = now_ns();
        round_trip();
        samples[i] = now_ns() - start;
    }
    for (long i = 0; i < count; i++) printf(i == 0 ? "%llu" : " %llu", (unsigned long long)samples[i]);
    printf("\n");
    free(samples);
}

/// Keeps `window` lines in flight until `total` are back, writing as many new
/// ones as came back, in one write (as the bench's pump does).
static void pipelined(long window, long total) {
    ensure_lines(window);
    long sent = 0, received = 0;
    uint64_t start = now_ns();
    while (received < total) {
        long more = window - (sent - received);
        if (more > total - sent) more = total - sent;
        if (more > 0 && write_all(to_echo, lines, (size_t)more * line_bytes) != 0) die("write");
        sent += more;
        received += read_lines();
    }
    printf("%llu\n", (unsigned long long)(now_ns() - start));
}

static long number(const char *text, const char *flag) {
    char *end;
    long value = strtol(text, &end, 10);
    if (*text == '\0' || *end != '\0' || value < 0) {
        fprintf(stderr, "bench-floor: %s needs a non-negative integer, not \"%s\"\n%s", flag, text, usage);
        exit(64);
    }
    return value;
}

int main(int argc, char **argv) {
    int host_cpu = -1, echo_cpu = -1;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0) {
            fputs(usage, stdout);
            return 0;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "bench-floor: unknown option or missing value: %s\n%s", argv[i], usage);
            return 64;
        }
        if (strcmp(argv[i], "--host-cpu") == 0) host_cpu = (int)number(argv[++i], "--host-cpu");
        else if (strcmp(argv[i], "--echo-cpu") == 0) echo_cpu = (int)number(argv[++i], "--echo-cpu");
        else if (strcmp(argv[i], "--line-bytes") == 0) line_bytes = (size_t)number(argv[++i], "--line-bytes");
        else {
            fprintf(stderr, "bench-floor: unknown option %s\n%s", argv[i], usage);
            return 64;
        }
    }
    if (line_bytes < 1 || line_bytes > 4096) {
        fprintf(stderr, "bench-floor: --line-bytes must be from 1 to 4096\n");
        return 64;
    }
    int down[2], up[2];
    if (pipe2(down, O_CLOEXEC) != 0 || pipe2(up, O_CLOEXEC) != 0) die("pipe2");
    pid_t child = fork();
    if (child < 0) die("fork");
    if (child == 0) {
        pin(echo_cpu);
        close(down[1]);
        close(up[0]);
        close(0);  // the control pipes belong to the parent alone
        close(1);
        echo(down[0], up[1]);
    }
    close(down[0]);
    close(up[1]);
    to_echo = down[1];
    from_echo = up[0];
    pin(host_cpu);
    char command[128];
    while (fgets(command, sizeof command, stdin) != NULL) {
        char name[16];
        long a, b;
        if (sscanf(command, "%15s %ld %ld", name, &a, &b) == 3 && a >= 0 && b >= 0) {
            if (strcmp(name, "seq") == 0) {
                sequential(a, b);
            } else if (strcmp(name, "pipe") == 0 && a > 0) {
                pipelined(a, b);
            } else {
                printf("error: unknown command\n");
            }
        } else {
            printf("error: unreadable command\n");
        }
        fflush(stdout);
    }
    close(to_echo);
    int status;
    while (waitpid(child, &status, 0) < 0 && errno == EINTR) {}
    return 0;
}
