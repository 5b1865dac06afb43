/* The simulated cards as the provider publishes them (/run/cardhour/gpu/status.json), read
 * again whenever the file has changed, so the numbers are as live as nvidia-smi's. */
#ifndef CARDHOUR_NVML_STATUS_H
#define CARDHOUR_NVML_STATUS_H

#define CH_MAX_GPUS 64
#define CH_MAX_PROCS 16

typedef struct
{
    int index;
    char name[96];
    char uuid[96];
    char bus_id[32];
    double memory_total_mib;
    double memory_used_mib;
    double utilization_gpu;
    double utilization_memory;
    double temperature_c;
    double power_draw_w;
    double power_limit_w;
    double fan_speed_pct;
    char pstate[8];
    int clocks[4]; /* graphics, sm, memory, video (nvmlClockType_t order), MHz */
    int max_clocks[4];
    /* A MIG slice lent to the box (the status's "mig"): its card is in MIG mode and
     * memory_total_mib is the slice's. */
    int mig;
    char mig_profile[32];
    char mig_uuid[96];
    int gpu_instance_id;
} ch_gpu;

typedef struct
{
    char driver_version[32];
    char cuda_version[16];
    int nvlinks;
    int gpu_count;
    ch_gpu gpus[CH_MAX_GPUS];
} ch_status;

typedef struct
{
    unsigned int pid;
    int gpu;
    unsigned long long used_bytes;
} ch_process;

/* The status file's path: $CARDHOUR_GPU_STATUS, else /run/cardhour/gpu/status.json. */
const char *ch_status_path(void);
/* 0 when read and parsed; -1 when the file is missing, -2 when it cannot be parsed. */
int ch_status_read(ch_status *out);

/* Which version of the status file *status holds: its inode, size and change time. */
typedef struct
{
    unsigned long long device, inode, size;
    long long mtime_sec, mtime_nsec;
    int valid;
} ch_status_stamp;

/* ch_status_read, unless the file is the one *stamp names (the provider replaces it by rename
 * each second): then *status is kept as it is. The same return codes; *status is left unchanged
 * on an error, and the stamp is cleared so the next call reads again. */
int ch_status_refresh(ch_status *status, ch_status_stamp *stamp);
/* This box's processes that do work, spread over the cards as nvidia-smi spreads them. */
int ch_box_processes(const ch_status *status, ch_process *out, int max);

#endif
