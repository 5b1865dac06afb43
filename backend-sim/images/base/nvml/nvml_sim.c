/* libnvidia-ml.so.1 for CardHour Sandbox boxes whose cards are simulated.
 *
 * Monitoring tools (pynvml, gpustat, nvtop, exporters) read the cards through NVML rather than
 * nvidia-smi. This answers the calls they use from the same live numbers the box's nvidia-smi
 * prints (the provider's status.json, read again whenever the file changes), with NVML's documented
 * return codes: UNINITIALIZED before nvmlInit, INVALID_ARGUMENT for a bad handle, index or NULL
 * pointer, NOT_FOUND for an unknown UUID or bus id, INSUFFICIENT_SIZE for a short buffer,
 * DRIVER_NOT_LOADED where the box has no simulated cards, NOT_SUPPORTED for what a simulated
 * card cannot report. A function this library lacks is missing, which NVML's loaders report as
 * NVML_ERROR_FUNCTION_NOT_FOUND. Boxes with real cards use NVIDIA's own library instead.
 */
#define _DEFAULT_SOURCE
#include "nvml_status.h"
#include "nvml_types.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* A handle is only an address in g_devices: its card is its offset there, so handles are never
 * written and threads share them safely. */
struct nvmlDevice_st
{
    char unused;
};

static struct nvmlDevice_st g_devices[CH_MAX_GPUS];
/* NVML is documented thread-safe, and exporters query from several threads: the init count is
 * atomic, and each thread reads the status file into its own copy, so a pointer into it stays
 * valid for the whole call however other threads refresh. */
static int g_init_count = 0;
static _Thread_local ch_status g_status;
static _Thread_local ch_status_stamp g_stamp;

static int initialised(void)
{
    return __atomic_load_n(&g_init_count, __ATOMIC_ACQUIRE) > 0;
}

/* The latest numbers; 0 on success. */
static nvmlReturn_t refresh(void)
{
    int r = ch_status_refresh(&g_status, &g_stamp);
    if (r == -1)
        return NVML_ERROR_DRIVER_NOT_LOADED;
    if (r != 0)
        return NVML_ERROR_UNKNOWN;
    return NVML_SUCCESS;
}

/* The card behind a handle, with fresh numbers; NULL and *rc set when there is none. */
static const ch_gpu *card(nvmlDevice_t device, nvmlReturn_t *rc)
{
    if (!initialised()) {
        *rc = NVML_ERROR_UNINITIALIZED;
        return NULL;
    }
    if (!device || device < g_devices || device >= g_devices + CH_MAX_GPUS) {
        *rc = NVML_ERROR_INVALID_ARGUMENT;
        return NULL;
    }
    if ((*rc = refresh()) != NVML_SUCCESS)
        return NULL;
    if (device - g_devices >= g_status.gpu_count) {
        *rc = NVML_ERROR_GPU_IS_LOST;
        return NULL;
    }
    *rc = NVML_SUCCESS;
    return &g_status.gpus[device - g_devices];
}

#define CARD_OR_RETURN(device, out)                                                                \
    nvmlReturn_t rc_;                                                                              \
    const ch_gpu *g = card(device, &rc_);                                                          \
    if (!g)                                                                                        \
        return rc_;                                                                                \
    if (!(out))                                                                                    \
    return NVML_ERROR_INVALID_ARGUMENT

static nvmlReturn_t copy_string(char *out, unsigned int length, const char *value)
{
    if (!out)
        return NVML_ERROR_INVALID_ARGUMENT;
    if (strlen(value) + 1 > length)
        return NVML_ERROR_INSUFFICIENT_SIZE;
    memcpy(out, value, strlen(value) + 1);
    return NVML_SUCCESS;
}

/* ---- init, shutdown, system ---- */

NVML_EXPORT nvmlReturn_t nvmlInitWithFlags(unsigned int flags)
{
    (void)flags;
    nvmlReturn_t rc = refresh();
    if (rc != NVML_SUCCESS)
        return rc;
    __atomic_add_fetch(&g_init_count, 1, __ATOMIC_ACQ_REL);
    return NVML_SUCCESS;
}

NVML_EXPORT nvmlReturn_t nvmlInit_v2(void)
{
    return nvmlInitWithFlags(0);
}

NVML_EXPORT nvmlReturn_t nvmlInit(void)
{
    return nvmlInitWithFlags(0);
}

NVML_EXPORT nvmlReturn_t nvmlShutdown(void)
{
    int count = __atomic_load_n(&g_init_count, __ATOMIC_ACQUIRE);
    do {
        if (count == 0)
            return NVML_ERROR_UNINITIALIZED;
    } while (!__atomic_compare_exchange_n(&g_init_count, &count, count - 1, 0, __ATOMIC_ACQ_REL,
                                          __ATOMIC_ACQUIRE));
    return NVML_SUCCESS;
}

NVML_EXPORT const char *nvmlErrorString(nvmlReturn_t result)
{
    switch (result) {
    case NVML_SUCCESS:
        return "Success";
    case NVML_ERROR_UNINITIALIZED:
        return "Uninitialized";
    case NVML_ERROR_INVALID_ARGUMENT:
        return "Invalid Argument";
    case NVML_ERROR_NOT_SUPPORTED:
        return "Not Supported";
    case NVML_ERROR_NO_PERMISSION:
        return "Insufficient Permissions";
    case NVML_ERROR_ALREADY_INITIALIZED:
        return "Already Initialized";
    case NVML_ERROR_NOT_FOUND:
        return "Not Found";
    case NVML_ERROR_INSUFFICIENT_SIZE:
        return "Insufficient Size";
    case NVML_ERROR_INSUFFICIENT_POWER:
        return "Insufficient External Power";
    case NVML_ERROR_DRIVER_NOT_LOADED:
        return "Driver Not Loaded";
    case NVML_ERROR_TIMEOUT:
        return "Timeout";
    case NVML_ERROR_IRQ_ISSUE:
        return "Interrupt Request Issue";
    case NVML_ERROR_LIBRARY_NOT_FOUND:
        return "NVML Shared Library Not Found";
    case NVML_ERROR_FUNCTION_NOT_FOUND:
        return "Function Not Found";
    case NVML_ERROR_CORRUPTED_INFOROM:
        return "Corrupted infoROM";
    case NVML_ERROR_GPU_IS_LOST:
        return "GPU is lost";
    case NVML_ERROR_RESET_REQUIRED:
        return "GPU requires restart";
    case NVML_ERROR_OPERATING_SYSTEM:
        return "The operating system has blocked the request.";
    case NVML_ERROR_LIB_RM_VERSION_MISMATCH:
        return "RM has detected an NVML/RM version mismatch.";
    case NVML_ERROR_IN_USE:
        return "In use by another client";
    case NVML_ERROR_MEMORY:
        return "Insufficient Memory";
    case NVML_ERROR_NO_DATA:
        return "No data";
    case NVML_ERROR_NOT_READY:
        return "System is not in ready state";
    case NVML_ERROR_GPU_NOT_FOUND:
        return "GPU not found";
    case NVML_ERROR_INVALID_STATE:
        return "Invalid state";
    default:
        return "Unknown Error";
    }
}

NVML_EXPORT nvmlReturn_t nvmlSystemGetDriverVersion(char *version, unsigned int length)
{
    if (!initialised())
        return NVML_ERROR_UNINITIALIZED;
    nvmlReturn_t rc = refresh();
    return rc != NVML_SUCCESS ? rc : copy_string(version, length, g_status.driver_version);
}

NVML_EXPORT nvmlReturn_t nvmlSystemGetNVMLVersion(char *version, unsigned int length)
{
    if (!initialised())
        return NVML_ERROR_UNINITIALIZED;
    nvmlReturn_t rc = refresh();
    if (rc != NVML_SUCCESS)
        return rc;
    /* "12.550.54.15": the CUDA major, then the driver version, as NVML prints it. */
    char text[NVML_SYSTEM_NVML_VERSION_BUFFER_SIZE];
    snprintf(text, sizeof text, "%d.%s", atoi(g_status.cuda_version), g_status.driver_version);
    return copy_string(version, length, text);
}

NVML_EXPORT nvmlReturn_t nvmlSystemGetCudaDriverVersion_v2(int *cudaDriverVersion)
{
    if (!cudaDriverVersion)
        return NVML_ERROR_INVALID_ARGUMENT;
    nvmlReturn_t rc = refresh();
    if (rc != NVML_SUCCESS)
        return rc;
    int major = 0, minor = 0;
    sscanf(g_status.cuda_version, "%d.%d", &major, &minor);
    *cudaDriverVersion = major * 1000 + minor * 10;
    return NVML_SUCCESS;
}

NVML_EXPORT nvmlReturn_t nvmlSystemGetCudaDriverVersion(int *cudaDriverVersion)
{
    return nvmlSystemGetCudaDriverVersion_v2(cudaDriverVersion);
}

/* ---- handles ---- */

NVML_EXPORT nvmlReturn_t nvmlDeviceGetCount_v2(unsigned int *deviceCount)
{
    if (!initialised())
        return NVML_ERROR_UNINITIALIZED;
    if (!deviceCount)
        return NVML_ERROR_INVALID_ARGUMENT;
    nvmlReturn_t rc = refresh();
    if (rc != NVML_SUCCESS)
        return rc;
    *deviceCount = (unsigned int)g_status.gpu_count;
    return NVML_SUCCESS;
}

NVML_EXPORT nvmlReturn_t nvmlDeviceGetCount(unsigned int *deviceCount)
{
    return nvmlDeviceGetCount_v2(deviceCount);
}

NVML_EXPORT nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int index, nvmlDevice_t *device)
{
    if (!initialised())
        return NVML_ERROR_UNINITIALIZED;
    nvmlReturn_t rc = refresh();
    if (rc != NVML_SUCCESS)
        return rc;
    if (!device || index >= (unsigned int)g_status.gpu_count)
        return NVML_ERROR_INVALID_ARGUMENT;
    *device = &g_devices[index];
    return NVML_SUCCESS;
}

NVML_EXPORT nvmlReturn_t nvmlDeviceGetHandleByIndex(unsigned int index, nvmlDevice_t *device)
{
    return nvmlDeviceGetHandleByIndex_v2(index, device);
}

NVML_EXPORT nvmlReturn_t nvmlDeviceGetHandleByUUID(const char *uuid, nvmlDevice_t *device)
{
    if (!initialised())
        return NVML_ERROR_UNINITIALIZED;
    if (!uuid || !device)
        return NVML_ERROR_INVALID_ARGUMENT;
    nvmlReturn_t rc = refresh();
    if (rc != NVML_SUCCESS)
        return rc;
    for (int i = 0; i < g_status.gpu_count; ++i) {
        if (strcmp(g_status.gpus[i].uuid, uuid) == 0) {
            *device = &g_devices[i];
            return NVML_SUCCESS;
        }
    }
    return NVML_ERROR_NOT_FOUND;
}

NVML_EXPORT nvmlReturn_t nvmlDeviceGetHandleByPciBusId_v2(const char *pciBusId,
                                                          nvmlDevice_t *device)
{
    if (!initialised())
        return NVML_ERROR_UNINITIALIZED;
    if (!pciBusId || !device)
        return NVML_ERROR_INVALID_ARGUMENT;
    nvmlReturn_t rc = refresh();
    if (rc != NVML_SUCCESS)
        return rc;
    for (int i = 0; i < g_status.gpu_count; ++i) {
        const char *bus = g_status.gpus[i].bus_id; /* 00000000:01:00.0; also 0000:01:00.0 */
        if (strcasecmp(bus, pciBusId) == 0 || (strlen(bus) > 4 && !strcasecmp(bus + 4, pciBusId))) {
            *device = &g_devices[i];
            return NVML_SUCCESS;
        }
    }
    return NVML_ERROR_NOT_FOUND;
}

NVML_EXPORT nvmlReturn_t nvmlDeviceGetHandleByPciBusId(const char *pciBusId, nvmlDevice_t *device)
{
    return nvmlDeviceGetHandleByPciBusId_v2(pciBusId, device);
}

NVML_EXPORT nvmlReturn_t nvmlDeviceGetIndex(nvmlDevice_t device, unsigned int *index)
{
    CARD_OR_RETURN(device, index);
    *index = (unsigned int)g->index;
    return NVML_SUCCESS;
}

NVML_EXPORT nvmlReturn_t nvmlDeviceGetMinorNumber(nvmlDevice_t device, unsigned int *minorNumber)
{
    CARD_OR_RETURN(device, minorNumber);
    *minorNumber = (unsigned int)g->index;
    return NVML_SUCCESS;
}

/* ---- identity ---- */

NVML_EXPORT nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t device, char *name, unsigned int length)
{
    CARD_OR_RETURN(device, name);
    return copy_string(name, length, g->name);
}

NVML_EXPORT nvmlReturn_t nvmlDeviceGetUUID(nvmlDevice_t device, char *uuid, unsigned int length)
{
    CARD_OR_RETURN(device, uuid);
    return copy_string(uuid, length, g->uuid);
}

NVML_EXPORT nvmlReturn_t nvmlDeviceGetSerial(nvmlDevice_t device, char *serial, unsigned int length)
{
    (void)length;
    CARD_OR_RETURN(device, serial);
    return NVML_ERROR_NOT_SUPPORTED; /* a simulated card has no board serial */
}

NVML_EXPORT nvmlReturn_t nvmlDeviceGetPciInfo_v3(nvmlDevice_t device, nvmlPciInfo_t *pci)
{
    CARD_OR_RETURN(device, pci);
    memset(pci, 0, sizeof *pci);
    if (sscanf(g->bus_id, "%x:%x:%x", &pci->domain, &pci->bus, &pci->device) != 3)
        return NVML_ERROR_UNKNOWN;
    snprintf(pci->busId, sizeof pci->busId, "%08X:%02X:%02X.0", pci->domain, pci->bus, pci->device);
    snprintf(pci->busIdLegacy, sizeof pci->busIdLegacy, "%04X:%02X:%02X.0", pci->domain & 0xffff,
             pci->bus, pci->device);
    pci->pciDeviceId = 0; /* no PCI device behind a simulated card */
    pci->pciSubSystemId = 0;
    return NVML_SUCCESS;
}

NVML_EXPORT nvmlReturn_t nvmlDeviceGetPciInfo_v2(nvmlDevice_t device, nvmlPciInfo_t *pci)
{
    return nvmlDeviceGetPciInfo_v3(device, pci);
}

NVML_EXPORT nvmlReturn_t nvmlDeviceGetPciInfo(nvmlDevice_t device, nvmlPciInfo_t *pci)
{
    return nvmlDeviceGetPciInfo_v3(device, pci);
}

/* ---- live numbers ---- */

static unsigned long long mib_bytes(double mib)
{
    return (unsigned long long)(mib + 0.5) * 1024ULL * 1024ULL;
}

NVML_EXPORT nvmlReturn_t nvmlDeviceGetMemoryInfo(nvmlDevice_t device, nvmlMemory_t *memory)
{
    CARD_OR_RETURN(device, memory);
    memory->total = mib_bytes(g->memory_total_mib);
    memory->used = mib_bytes(g->memory_used_mib);
    memory->free = memory->total - memory->used;
    return NVML_SUCCESS;
}

NVML_EXPORT nvmlReturn_t nvmlDeviceGetMemoryInfo_v2(nvmlDevice_t device, nvmlMemory_v2_t *memory)
{
    CARD_OR_RETURN(device, memory);
    if (memory->version != nvmlMemory_v2)
        return NVML_ERROR_ARGUMENT_VERSION_MISMATCH;
    memory->total = mib_bytes(g->memory_total_mib);
    memory->reserved = 0;
    memory->used = mib_bytes(g->memory_used_mib);
    memory->free = memory->total - memory->used;
    return NVML_SUCCESS;
}

NVML_EXPORT nvmlReturn_t nvmlDeviceGetUtilizationRates(nvmlDevice_t device,
                                                       nvmlUtilization_t *utilization)
{
    CARD_OR_RETURN(device, utilization);
    utilization->gpu = (unsigned int)(g->utilization_gpu + 0.5);
    utilization->memory = (unsigned int)(g->utilization_memory + 0.5);
    return NVML_SUCCESS;
}

static nvmlReturn_t codec_utilization(nvmlDevice_t device, unsigned int *utilization,
                                      unsigned int *samplingPeriodUs)
{
    CARD_OR_RETURN(device, utilization);
    if (!samplingPeriodUs)
        return NVML_ERROR_INVALID_ARGUMENT;
    *utilization = 0; /* nothing encodes or decodes video on a simulated card */
    *samplingPeriodUs = 1000000;
    return NVML_SUCCESS;
}

NVML_EXPORT nvmlReturn_t nvmlDeviceGetEncoderUtilization(nvmlDevice_t device,
                                                         unsigned int *utilization,
                                                         unsigned int *samplingPeriodUs)
{
    return codec_utilization(device, utilization, samplingPeriodUs);
}

NVML_EXPORT nvmlReturn_t nvmlDeviceGetDecoderUtilization(nvmlDevice_t device,
                                                         unsigned int *utilization,
                                                         unsigned int *samplingPeriodUs)
{
    return codec_utilization(device, utilization, samplingPeriodUs);
}

NVML_EXPORT nvmlReturn_t nvmlDeviceGetTemperature(nvmlDevice_t device,
                                                  nvmlTemperatureSensors_t sensorType,
                                                  unsigned int *temp)
{
    CARD_OR_RETURN(device, temp);
    if (sensorType != NVML_TEMPERATURE_GPU)
        return NVML_ERROR_INVALID_ARGUMENT;
    *temp = (unsigned int)(g->temperature_c + 0.5);
    return NVML_SUCCESS;
}

NVML_EXPORT nvmlReturn_t nvmlDeviceGetFanSpeed(nvmlDevice_t device, unsigned int *speed)
{
    CARD_OR_RETURN(device, speed);
    *speed = (unsigned int)(g->fan_speed_pct + 0.5);
    return NVML_SUCCESS;
}

NVML_EXPORT nvmlReturn_t nvmlDeviceGetPowerUsage(nvmlDevice_t device, unsigned int *power)
{
    CARD_OR_RETURN(device, power);
    *power = (unsigned int)(g->power_draw_w * 1000.0 + 0.5); /* milliwatts */
    return NVML_SUCCESS;
}

static nvmlReturn_t power_limit(nvmlDevice_t device, unsigned int *limit)
{
    CARD_OR_RETURN(device, limit);
    *limit = (unsigned int)(g->power_limit_w * 1000.0 + 0.5);
    return NVML_SUCCESS;
}

/* A card whose box is lent a MIG slice is in MIG mode (1, NVML_DEVICE_MIG_ENABLE); its memory
 * info is the slice's, as CUDA in the box sees it. */
NVML_EXPORT nvmlReturn_t nvmlDeviceGetMigMode(nvmlDevice_t device, unsigned int *currentMode,
                                              unsigned int *pendingMode)
{
    CARD_OR_RETURN(device, currentMode);
    if (!pendingMode)
        return NVML_ERROR_INVALID_ARGUMENT;
    *currentMode = *pendingMode = g->mig ? 1u : 0u;
    return NVML_SUCCESS;
}

NVML_EXPORT nvmlReturn_t nvmlDeviceGetPowerManagementLimit(nvmlDevice_t device, unsigned int *limit)
{
    return power_limit(device, limit);
}

NVML_EXPORT nvmlReturn_t nvmlDeviceGetEnforcedPowerLimit(nvmlDevice_t device, unsigned int *limit)
{
    return power_limit(device, limit);
}

NVML_EXPORT nvmlReturn_t nvmlDeviceGetPowerManagementDefaultLimit(nvmlDevice_t device,
                                                                  unsigned int *defaultLimit)
{
    return power_limit(device, defaultLimit);
}

NVML_EXPORT nvmlReturn_t nvmlDeviceGetPerformanceState(nvmlDevice_t device, nvmlPstates_t *pState)
{
    CARD_OR_RETURN(device, pState);
    int state = -1;
    if (sscanf(g->pstate, "P%d", &state) != 1 || state < 0 || state > 15)
        *pState = NVML_PSTATE_UNKNOWN;
    else
        *pState = (nvmlPstates_t)state;
    return NVML_SUCCESS;
}

NVML_EXPORT nvmlReturn_t nvmlDeviceGetClockInfo(nvmlDevice_t device, nvmlClockType_t type,
                                                unsigned int *clock)
{
    CARD_OR_RETURN(device, clock);
    if ((int)type < 0 || type >= NVML_CLOCK_COUNT)
        return NVML_ERROR_INVALID_ARGUMENT;
    *clock = (unsigned int)g->clocks[type];
    return NVML_SUCCESS;
}

NVML_EXPORT nvmlReturn_t nvmlDeviceGetMaxClockInfo(nvmlDevice_t device, nvmlClockType_t type,
                                                   unsigned int *clock)
{
    CARD_OR_RETURN(device, clock);
    if ((int)type < 0 || type >= NVML_CLOCK_COUNT)
        return NVML_ERROR_INVALID_ARGUMENT;
    *clock = (unsigned int)g->max_clocks[type];
    return NVML_SUCCESS;
}

/* ---- processes ---- */

/* NVML's contract: with too small a buffer (or none), the count needed and INSUFFICIENT_SIZE. */
static nvmlReturn_t processes(nvmlDevice_t device, unsigned int *infoCount, void *infos,
                              size_t stride, int with_instances)
{
    CARD_OR_RETURN(device, infoCount);
    ch_process all[CH_MAX_PROCS];
    const int n = ch_box_processes(&g_status, all, CH_MAX_PROCS);
    unsigned int mine = 0;
    for (int i = 0; i < n; ++i)
        mine += all[i].gpu == g->index;
    if (*infoCount < mine || (mine > 0 && !infos)) {
        *infoCount = mine;
        return NVML_ERROR_INSUFFICIENT_SIZE;
    }
    unsigned int k = 0;
    for (int i = 0; i < n; ++i) {
        if (all[i].gpu != g->index)
            continue;
        char *slot = (char *)infos + stride * k++;
        if (with_instances) {
            nvmlProcessInfo_t *p = (nvmlProcessInfo_t *)slot;
            p->pid = all[i].pid;
            p->usedGpuMemory = all[i].used_bytes;
            p->gpuInstanceId = 0xFFFFFFFFu; /* no MIG */
            p->computeInstanceId = 0xFFFFFFFFu;
        } else {
            nvmlProcessInfo_v1_t *p = (nvmlProcessInfo_v1_t *)slot;
            p->pid = all[i].pid;
            p->usedGpuMemory = all[i].used_bytes;
        }
    }
    *infoCount = mine;
    return NVML_SUCCESS;
}

NVML_EXPORT nvmlReturn_t nvmlDeviceGetComputeRunningProcesses_v3(nvmlDevice_t device,
                                                                 unsigned int *infoCount,
                                                                 nvmlProcessInfo_t *infos)
{
    return processes(device, infoCount, infos, sizeof(nvmlProcessInfo_t), 1);
}

NVML_EXPORT nvmlReturn_t nvmlDeviceGetComputeRunningProcesses_v2(nvmlDevice_t device,
                                                                 unsigned int *infoCount,
                                                                 nvmlProcessInfo_t *infos)
{
    return processes(device, infoCount, infos, sizeof(nvmlProcessInfo_t), 1);
}

NVML_EXPORT nvmlReturn_t nvmlDeviceGetComputeRunningProcesses(nvmlDevice_t device,
                                                              unsigned int *infoCount,
                                                              nvmlProcessInfo_v1_t *infos)
{
    return processes(device, infoCount, infos, sizeof(nvmlProcessInfo_v1_t), 0);
}

/* No graphics contexts on a simulated card: always an empty list. */
static nvmlReturn_t no_processes(nvmlDevice_t device, unsigned int *infoCount)
{
    CARD_OR_RETURN(device, infoCount);
    *infoCount = 0;
    return NVML_SUCCESS;
}

NVML_EXPORT nvmlReturn_t nvmlDeviceGetGraphicsRunningProcesses_v3(nvmlDevice_t device,
                                                                  unsigned int *infoCount,
                                                                  nvmlProcessInfo_t *infos)
{
    (void)infos;
    return no_processes(device, infoCount);
}

NVML_EXPORT nvmlReturn_t nvmlDeviceGetGraphicsRunningProcesses_v2(nvmlDevice_t device,
                                                                  unsigned int *infoCount,
                                                                  nvmlProcessInfo_t *infos)
{
    (void)infos;
    return no_processes(device, infoCount);
}

NVML_EXPORT nvmlReturn_t nvmlDeviceGetGraphicsRunningProcesses(nvmlDevice_t device,
                                                               unsigned int *infoCount,
                                                               nvmlProcessInfo_v1_t *infos)
{
    (void)infos;
    return no_processes(device, infoCount);
}
