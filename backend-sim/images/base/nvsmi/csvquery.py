"""--query-gpu, --query-compute-apps and their --help-query-* lists, in the real tool's CSV."""
import sys

from status import EXIT_INVALID_ARGUMENT, SmiError, box_processes, invalid_arguments, timestamp_csv


def _plain(v):
    return str(v), str(v)


def _unit(v, unit, fmt="{:d}"):
    text = fmt.format(v)
    return f"{text} {unit}", text


def _mib(v):
    return _unit(int(round(v)), "MiB")


def _pct(v):
    return _unit(int(round(v)), "%")


def _watts(v):
    return _unit(float(v), "W", "{:.2f}")


def _mhz(v):
    return _unit(int(v), "MHz")


# name → (aliases, header unit, value(status, gpu), description). The descriptions say what the
# field is, as --help-query-gpu does; the simulated ones say so.
GPU_FIELDS = [
    ("timestamp", [], None, lambda s, g: _plain(timestamp_csv()),
     'The timestamp of when the query was made in format "YYYY/MM/DD HH:MM:SS.msec".'),
    ("driver_version", [], None, lambda s, g: _plain(s["driver_version"]),
     "The version of the installed NVIDIA display driver (simulated: the version the sandbox reports)."),
    ("count", [], None, lambda s, g: _plain(len(s["gpus"])),
     "The number of NVIDIA GPUs in the system."),
    ("name", ["gpu_name"], None, lambda s, g: _plain(g["name"]),
     "The official product name of the GPU."),
    ("serial", ["gpu_serial"], None, lambda s, g: _plain("[N/A]"),
     "The serial number of the board (simulated cards have none)."),
    ("uuid", ["gpu_uuid"], None, lambda s, g: _plain(g["uuid"]),
     "The globally unique immutable alphanumeric identifier of the GPU (GPU-sim-... for simulated cards)."),
    ("index", [], None, lambda s, g: _plain(g["index"]),
     "Zero based index of the GPU. Can change at each boot."),
    ("pci.bus_id", ["gpu_bus_id"], None, lambda s, g: _plain(g["bus_id"]),
     'PCI bus id as "domain:bus:device.function", in hex.'),
    ("pci.domain", [], None, lambda s, g: _plain(f"0x{g['pci_domain']:04X}"), "PCI domain number, in hex."),
    ("pci.bus", [], None, lambda s, g: _plain(f"0x{g['pci_bus']:02X}"), "PCI bus number, in hex."),
    ("pci.device", [], None, lambda s, g: _plain(f"0x{g['pci_device']:02X}"), "PCI device number, in hex."),
    ("persistence_mode", [], None, lambda s, g: _plain("Disabled"),
     "A flag that indicates whether persistence mode is enabled for the GPU."),
    ("pstate", [], None, lambda s, g: _plain(g["pstate"]),
     "The current performance state for the GPU. States range from P0 (maximum performance) to P12 "
     "(minimum performance)."),
    ("fan.speed", [], "%", lambda s, g: _pct(g["fan_speed_pct"]),
     "The fan speed value is the percent of the product's maximum noise tolerance fan speed."),
    ("memory.total", [], "MiB", lambda s, g: _mib(g["memory_total_mib"]), "Total installed GPU memory."),
    ("memory.reserved", [], "MiB", lambda s, g: _mib(0), "Total memory reserved by the NVIDIA driver and firmware."),
    ("memory.used", [], "MiB", lambda s, g: _mib(g["memory_used_mib"]), "Total memory allocated by active contexts."),
    ("memory.free", [], "MiB", lambda s, g: _mib(g["memory_total_mib"] - g["memory_used_mib"]),
     "Total free memory."),
    ("compute_mode", [], None, lambda s, g: _plain("Default"),
     "The compute mode flag indicates whether individual or multiple compute applications may run on the GPU."),
    ("utilization.gpu", ["utilization"], "%", lambda s, g: _pct(g["utilization_gpu"]),
     "Percent of time over the past sample period during which one or more kernels was executing on the GPU "
     "(simulated: follows this box's real CPU use)."),
    ("utilization.memory", [], "%", lambda s, g: _pct(g["utilization_memory"]),
     "Percent of time over the past sample period during which global (device) memory was being read or written."),
    ("temperature.gpu", [], None, lambda s, g: _plain(int(round(g["temperature_c"]))),
     "Core GPU temperature. in degrees C."),
    ("temperature.memory", [], None, lambda s, g: _plain("N/A"), "HBM memory temperature. in degrees C."),
    ("power.draw", [], "W", lambda s, g: _watts(g["power_draw_w"]),
     "The last measured power draw for the entire board, in watts."),
    ("power.limit", [], "W", lambda s, g: _watts(g["power_limit_w"]),
     "The software power limit in watts."),
    ("enforced.power.limit", [], "W", lambda s, g: _watts(g["power_limit_w"]),
     "The power management algorithm's power ceiling, in watts."),
    ("power.default_limit", [], "W", lambda s, g: _watts(g["power_limit_w"]),
     "The default power management algorithm's power ceiling, in watts."),
    ("power.max_limit", [], "W", lambda s, g: _watts(g["power_limit_w"]),
     "The maximum value in watts that power limit can be set to."),
    ("clocks.current.graphics", ["clocks.gr"], "MHz", lambda s, g: _mhz(g["clocks_mhz"]["graphics"]),
     "Current frequency of graphics (shader) clock."),
    ("clocks.current.sm", ["clocks.sm"], "MHz", lambda s, g: _mhz(g["clocks_mhz"]["sm"]),
     "Current frequency of SM (Streaming Multiprocessor) clock."),
    ("clocks.current.memory", ["clocks.mem"], "MHz", lambda s, g: _mhz(g["clocks_mhz"]["memory"]),
     "Current frequency of memory clock."),
    ("clocks.current.video", ["clocks.video"], "MHz", lambda s, g: _mhz(g["clocks_mhz"]["video"]),
     "Current frequency of video encoder/decoder clock."),
    ("clocks.max.graphics", ["clocks.max.gr"], "MHz", lambda s, g: _mhz(g["max_clocks_mhz"]["graphics"]),
     "Maximum frequency of graphics (shader) clock."),
    ("clocks.max.sm", [], "MHz", lambda s, g: _mhz(g["max_clocks_mhz"]["sm"]),
     "Maximum frequency of SM (Streaming Multiprocessor) clock."),
    ("clocks.max.memory", ["clocks.max.mem"], "MHz", lambda s, g: _mhz(g["max_clocks_mhz"]["memory"]),
     "Maximum frequency of memory clock."),
]

APP_FIELDS = [
    ("timestamp", [], None, lambda s, p: _plain(timestamp_csv()), "The timestamp of when the query was made."),
    ("gpu_name", [], None, lambda s, p: _plain(s["gpus"][p["gpu"]]["name"]), "The name of the GPU."),
    ("gpu_bus_id", [], None, lambda s, p: _plain(p["bus_id"]), "PCI bus id of the GPU."),
    ("gpu_serial", [], None, lambda s, p: _plain("[N/A]"), "The serial number of the GPU's board."),
    ("gpu_uuid", [], None, lambda s, p: _plain(p["uuid"]), "The UUID of the GPU."),
    ("pid", [], None, lambda s, p: _plain(p["pid"]), "Process ID of the compute application."),
    ("process_name", ["name"], None, lambda s, p: _plain(p["path"]), "Process Name."),
    ("used_gpu_memory", ["used_memory"], "MiB", lambda s, p: _mib(p["used_memory_mib"]),
     "Amount memory used on the device by the context (simulated: the process's resident memory)."),
]


def _lookup(table, name):
    for entry in table:
        if entry[0] == name or name in entry[1]:
            return entry
    raise SmiError(f'Field "{name}" is not a valid field to query.', EXIT_INVALID_ARGUMENT)


def _format_options(fmt):
    options = [o.strip() for o in fmt.split(",") if o.strip()]
    if not options or options[0] != "csv" or any(o not in ("csv", "noheader", "nounits") for o in options):
        raise invalid_arguments()
    return "noheader" not in options, "nounits" not in options


def _print_rows(table, fields, fmt, status, items):
    header, units = _format_options(fmt)
    names = [f.strip() for f in fields.split(",") if f.strip()]
    if not names:
        raise invalid_arguments()
    entries = [(n, _lookup(table, n)) for n in names]
    if header:
        print(", ".join(n + (f" [{e[2]}]" if e[2] and units else "") for n, e in entries))
    for item in items:
        print(", ".join(e[3](status, item)[0 if units else 1] for n, e in entries))


def print_gpu_query(status, gpus, fields, fmt):
    _print_rows(GPU_FIELDS, fields, fmt, status, gpus)


def print_app_query(status, gpus, fields, fmt):
    indexes = {g["index"] for g in gpus}
    _print_rows(APP_FIELDS, fields, fmt, status, [p for p in box_processes(status) if p["gpu"] in indexes])


def _print_help(table, title):
    print(f"List of valid properties to query for the switch \"{title}\":")
    print()
    for name, aliases, unit, _fn, text in table:
        print('"' + '" or "'.join([name] + aliases) + '"')
        print(text)
        print()
    print("CardHour Sandbox: SIMULATED GPUs; the values come from the provider's simulation.")


def help_query_gpu():
    _print_help(GPU_FIELDS, "--query-gpu")


def help_query_compute_apps():
    _print_help(APP_FIELDS, "--query-compute-apps")
