/* A small JSON reader for the one document the provider writes, and the box's processes. */
#define _GNU_SOURCE
#include "nvml_status.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct
{
    const char *p;
    const char *end;
    int failed;
} cursor;

static void skip_ws(cursor *c)
{
    while (c->p < c->end && isspace((unsigned char)*c->p))
        c->p++;
}

static int eat(cursor *c, char ch)
{
    skip_ws(c);
    if (c->p < c->end && *c->p == ch) {
        c->p++;
        return 1;
    }
    return 0;
}

/* A string into buf (escapes other than \" and \\ are kept as their letter). */
static void read_string(cursor *c, char *buf, size_t size)
{
    size_t n = 0;
    if (!eat(c, '"')) {
        c->failed = 1;
        return;
    }
    while (c->p < c->end && *c->p != '"') {
        char ch = *c->p++;
        if (ch == '\\' && c->p < c->end)
            ch = *c->p++;
        if (buf && n + 1 < size)
            buf[n++] = ch;
    }
    if (buf && size)
        buf[n] = '\0';
    if (!eat(c, '"'))
        c->failed = 1;
}

static double read_number(cursor *c)
{
    char *stop = NULL;
    skip_ws(c);
    double v = strtod(c->p, &stop);
    if (stop == c->p)
        c->failed = 1;
    else
        c->p = stop;
    return v;
}

static void skip_value(cursor *c, int depth)
{
    skip_ws(c);
    if (depth > 32 || c->p >= c->end) {
        c->failed = 1;
        return;
    }
    if (*c->p == '"') {
        read_string(c, NULL, 0);
    } else if (*c->p == '{' || *c->p == '[') {
        char close = *c->p == '{' ? '}' : ']';
        int object = *c->p == '{';
        c->p++;
        if (eat(c, close))
            return;
        do {
            if (object) {
                read_string(c, NULL, 0);
                if (!eat(c, ':'))
                    c->failed = 1;
            }
            skip_value(c, depth + 1);
        } while (!c->failed && eat(c, ','));
        if (!eat(c, close))
            c->failed = 1;
    } else {
        while (c->p < c->end && (isalnum((unsigned char)*c->p) || strchr("+-.", *c->p)))
            c->p++;
    }
}

static void read_clocks(cursor *c, int *clocks)
{
    static const char *const names[4] = {"graphics", "sm", "memory", "video"};
    char key[32];
    if (!eat(c, '{')) {
        c->failed = 1;
        return;
    }
    if (eat(c, '}'))
        return;
    do {
        read_string(c, key, sizeof key);
        if (!eat(c, ':'))
            c->failed = 1;
        int found = 0;
        for (int i = 0; i < 4 && !found; ++i) {
            if (strcmp(key, names[i]) == 0) {
                clocks[i] = (int)read_number(c);
                found = 1;
            }
        }
        if (!found)
            skip_value(c, 1);
    } while (!c->failed && eat(c, ','));
    if (!eat(c, '}'))
        c->failed = 1;
}

static void read_mig(cursor *c, ch_gpu *g)
{
    char key[48];
    g->mig = 1;
    if (!eat(c, '{')) {
        c->failed = 1;
        return;
    }
    if (eat(c, '}'))
        return;
    do {
        read_string(c, key, sizeof key);
        if (!eat(c, ':'))
            c->failed = 1;
        if (!strcmp(key, "profile"))
            read_string(c, g->mig_profile, sizeof g->mig_profile);
        else if (!strcmp(key, "uuid"))
            read_string(c, g->mig_uuid, sizeof g->mig_uuid);
        else if (!strcmp(key, "gpu_instance_id"))
            g->gpu_instance_id = (int)read_number(c);
        else
            skip_value(c, 1);
    } while (!c->failed && eat(c, ','));
    if (!eat(c, '}'))
        c->failed = 1;
}

static void read_gpu(cursor *c, ch_gpu *g)
{
    char key[48];
    memset(g, 0, sizeof *g);
    const int idle[4] = {210, 210, 405, 555};
    memcpy(g->clocks, idle, sizeof idle);
    int have_max = 0;
    if (!eat(c, '{')) {
        c->failed = 1;
        return;
    }
    if (eat(c, '}'))
        return;
    do {
        read_string(c, key, sizeof key);
        if (!eat(c, ':'))
            c->failed = 1;
        if (!strcmp(key, "index"))
            g->index = (int)read_number(c);
        else if (!strcmp(key, "name"))
            read_string(c, g->name, sizeof g->name);
        else if (!strcmp(key, "uuid"))
            read_string(c, g->uuid, sizeof g->uuid);
        else if (!strcmp(key, "bus_id"))
            read_string(c, g->bus_id, sizeof g->bus_id);
        else if (!strcmp(key, "memory_total_mib"))
            g->memory_total_mib = read_number(c);
        else if (!strcmp(key, "memory_used_mib"))
            g->memory_used_mib = read_number(c);
        else if (!strcmp(key, "utilization_gpu"))
            g->utilization_gpu = read_number(c);
        else if (!strcmp(key, "utilization_memory"))
            g->utilization_memory = read_number(c);
        else if (!strcmp(key, "temperature_c"))
            g->temperature_c = read_number(c);
        else if (!strcmp(key, "power_draw_w"))
            g->power_draw_w = read_number(c);
        else if (!strcmp(key, "power_limit_w"))
            g->power_limit_w = read_number(c);
        else if (!strcmp(key, "fan_speed_pct"))
            g->fan_speed_pct = read_number(c);
        else if (!strcmp(key, "pstate"))
            read_string(c, g->pstate, sizeof g->pstate);
        else if (!strcmp(key, "clocks_mhz"))
            read_clocks(c, g->clocks);
        else if (!strcmp(key, "max_clocks_mhz")) {
            read_clocks(c, g->max_clocks);
            have_max = 1;
        } else if (!strcmp(key, "mig"))
            read_mig(c, g);
        else
            skip_value(c, 1);
    } while (!c->failed && eat(c, ','));
    if (!eat(c, '}'))
        c->failed = 1;
    if (!have_max)
        memcpy(g->max_clocks, g->clocks, sizeof g->clocks);
    if (g->memory_used_mib > g->memory_total_mib)
        g->memory_used_mib = g->memory_total_mib;
}

const char *ch_status_path(void)
{
    const char *env = getenv("CARDHOUR_GPU_STATUS");
    return env && *env ? env : "/run/cardhour/gpu/status.json";
}

static int parse_status(const char *text, size_t n, ch_status *out);

int ch_status_read(ch_status *out)
{
    FILE *f = fopen(ch_status_path(), "rb");
    if (!f)
        return -1;
    /* On the heap, not in a static buffer: threads read at the same time. */
    enum {
        max_size = 1 << 20
    };
    char *text = malloc(max_size);
    if (!text) {
        fclose(f);
        return -2;
    }
    size_t n = fread(text, 1, max_size - 1, f);
    fclose(f);
    text[n] = '\0';
    int rc = parse_status(text, n, out);
    free(text);
    return rc;
}

int ch_status_refresh(ch_status *status, ch_status_stamp *stamp)
{
    struct stat st;
    if (stat(ch_status_path(), &st) != 0) {
        stamp->valid = 0;
        return -1;
    }
    if (stamp->valid && stamp->device == (unsigned long long)st.st_dev
        && stamp->inode == (unsigned long long)st.st_ino
        && stamp->size == (unsigned long long)st.st_size && stamp->mtime_sec == st.st_mtim.tv_sec
        && stamp->mtime_nsec == st.st_mtim.tv_nsec)
        return 0;
    ch_status fresh;
    int rc = ch_status_read(&fresh);
    if (rc != 0) {
        stamp->valid = 0;
        return rc;
    }
    *status = fresh;
    /* The stamp taken before the read: a file replaced in between is read again next time. */
    stamp->device = (unsigned long long)st.st_dev;
    stamp->inode = (unsigned long long)st.st_ino;
    stamp->size = (unsigned long long)st.st_size;
    stamp->mtime_sec = st.st_mtim.tv_sec;
    stamp->mtime_nsec = st.st_mtim.tv_nsec;
    stamp->valid = 1;
    return 0;
}

static int parse_status(const char *text, size_t n, ch_status *out)
{
    memset(out, 0, sizeof *out);
    cursor c = {text, text + n, 0};
    char key[48];
    if (!eat(&c, '{'))
        return -2;
    if (!eat(&c, '}')) {
        do {
            read_string(&c, key, sizeof key);
            if (!eat(&c, ':'))
                c.failed = 1;
            if (!strcmp(key, "driver_version"))
                read_string(&c, out->driver_version, sizeof out->driver_version);
            else if (!strcmp(key, "cuda_version"))
                read_string(&c, out->cuda_version, sizeof out->cuda_version);
            else if (!strcmp(key, "nvlinks"))
                out->nvlinks = (int)read_number(&c);
            else if (!strcmp(key, "gpus")) {
                if (!eat(&c, '['))
                    c.failed = 1;
                else if (!eat(&c, ']')) {
                    do {
                        if (out->gpu_count < CH_MAX_GPUS)
                            read_gpu(&c, &out->gpus[out->gpu_count++]);
                        else
                            skip_value(&c, 1);
                    } while (!c.failed && eat(&c, ','));
                    if (!eat(&c, ']'))
                        c.failed = 1;
                }
            } else
                skip_value(&c, 1);
        } while (!c.failed && eat(&c, ','));
        if (!eat(&c, '}'))
            c.failed = 1;
    }
    return c.failed ? -2 : 0;
}

/* What nvidia-smi (nvsmi/status.py) leaves out as idle: shells, sshd, the tools themselves. */
static int idle_name(const char *name)
{
    static const char *const names[] = {
        "sshd",         "sh",           "bash", "dash", "zsh", "sleep", "cardhour-entrypoint",
        "cardhour-app", "tmux: server", "tmux", "less", "vi",  "vim",   "nvidia-smi",
        "ps",           "top",          "htop", "init"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i) {
        if (!strcmp(name, names[i]))
            return 1;
    }
    return 0;
}

static int by_pid(const void *a, const void *b)
{
    const ch_process *x = a, *y = b;
    return x->pid < y->pid ? -1 : x->pid > y->pid;
}

int ch_box_processes(const ch_status *status, ch_process *out, int max)
{
    if (status->gpu_count <= 0 || max <= 0)
        return 0;
    DIR *proc = opendir("/proc");
    if (!proc)
        return 0;
    ch_process found[512];
    double rss_mib[512];
    int count = 0;
    const double page_mib = (double)sysconf(_SC_PAGESIZE) / (1024.0 * 1024.0);
    const double ticks = (double)sysconf(_SC_CLK_TCK);
    const unsigned int me = (unsigned int)getpid();
    struct dirent *entry;
    while ((entry = readdir(proc)) != NULL && count < 512) {
        char *stop = NULL;
        unsigned long pid = strtoul(entry->d_name, &stop, 10);
        if (!*entry->d_name || *stop || pid == me)
            continue;
        char path[64], stat[1024], name[64];
        snprintf(path, sizeof path, "/proc/%lu/cmdline", pid);
        FILE *f = fopen(path, "rb");
        if (!f)
            continue;
        int has_cmdline = fgetc(f) != EOF; /* kernel threads have none */
        fclose(f);
        if (!has_cmdline)
            continue;
        snprintf(path, sizeof path, "/proc/%lu/stat", pid);
        if (!(f = fopen(path, "r")))
            continue;
        size_t n = fread(stat, 1, sizeof stat - 1, f);
        fclose(f);
        stat[n] = '\0';
        char *open = strchr(stat, '('), *close = strrchr(stat, ')');
        if (!open || !close || close < open)
            continue;
        size_t len = (size_t)(close - open - 1) < sizeof name - 1 ? (size_t)(close - open - 1)
                                                                  : sizeof name - 1;
        memcpy(name, open + 1, len);
        name[len] = '\0';
        /* After ") ": state, then 10 fields, then utime and stime (fields 14 and 15). */
        unsigned long long utime = 0, stime = 0;
        char *rest = close + 2;
        for (int field = 3; field < 14 && rest; ++field)
            rest = strchr(rest, ' ') ? strchr(rest, ' ') + 1 : NULL;
        if (!rest || sscanf(rest, "%llu %llu", &utime, &stime) != 2)
            continue;
        snprintf(path, sizeof path, "/proc/%lu/statm", pid);
        unsigned long long size_pages = 0, rss_pages = 0;
        if (!(f = fopen(path, "r")))
            continue;
        int ok = fscanf(f, "%llu %llu", &size_pages, &rss_pages) == 2;
        fclose(f);
        if (!ok)
            continue;
        const double rss = (double)rss_pages * page_mib;
        const double cpu_s = (double)(utime + stime) / ticks;
        if (idle_name(name) || (rss < 32 && cpu_s < 1))
            continue;
        found[count].pid = (unsigned int)pid;
        rss_mib[count] = rss;
        found[count].used_bytes = (unsigned long long)rss; /* sorted with it below */
        count++;
    }
    closedir(proc);
    for (int i = 0; i < count; ++i)
        found[i].used_bytes = (unsigned long long)(rss_mib[i] * 1024.0 * 1024.0);
    qsort(found, (size_t)count, sizeof found[0], by_pid);
    int n = 0;
    for (int i = 0; i < count && n < max && n < CH_MAX_PROCS; ++i, ++n) {
        const ch_gpu *gpu = &status->gpus[i % status->gpu_count];
        /* nvidia-smi prints whole MiB: the same rounding, so both agree to the byte. */
        unsigned long long rss = found[i].used_bytes / (1024ULL * 1024ULL);
        unsigned long long cap = (unsigned long long)gpu->memory_used_mib;
        out[n].pid = found[i].pid;
        out[n].gpu = gpu->index;
        out[n].used_bytes = (rss < cap ? rss : cap) * 1024ULL * 1024ULL;
    }
    return n;
}
