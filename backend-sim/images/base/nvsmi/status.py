"""The simulated cards' live numbers, as the provider publishes them, and what follows from them.

The provider writes /run/cardhour/gpu/status.json (read-only in the box) once a second; every
output of this nvidia-smi, and the NVML stand-in, read that one file.
"""
import datetime
import json
import os
import sys
import time

STATUS = os.environ.get("CARDHOUR_GPU_STATUS", "/run/cardhour/gpu/status.json")
STALE_AFTER_S = 10

# nvidia-smi's documented return codes.
EXIT_INVALID_ARGUMENT = 2
EXIT_NOT_FOUND = 6
EXIT_NO_DRIVER = 9


class SmiError(Exception):
    """An error the real tool reports on stderr with one of its return codes."""

    def __init__(self, message, code):
        super().__init__(message)
        self.code = code


def invalid_arguments():
    return SmiError("Invalid combination of input arguments. Please run 'nvidia-smi -h' for help.",
                    EXIT_INVALID_ARGUMENT)


def load_status():
    # Just after the box is ready the provider may not have published the first sample yet
    # (it does once a second): wait for it a little when the mount is there.
    deadline = time.monotonic() + 3
    while not os.path.exists(STATUS) and time.monotonic() < deadline:
        time.sleep(0.1)
    try:
        with open(STATUS, encoding="utf-8") as f:
            status = json.load(f)
    except FileNotFoundError:
        raise SmiError("NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. "
                       "(CardHour Sandbox: this instance has no simulated GPU data, " + STATUS + " is missing.)",
                       EXIT_NO_DRIVER)
    except (OSError, ValueError) as e:
        raise SmiError(f"NVIDIA-SMI has failed: cannot read {STATUS}: {e}", EXIT_NO_DRIVER)
    age = time.time() - status.get("updated_at_unix", 0)
    if age > STALE_AFTER_S:
        sys.stderr.write(f"Warning: the GPU numbers are {int(age)} s old (the provider is not updating them).\n")
    for g in status["gpus"]:
        fill_in(g)
    return status


def fill_in(g):
    """Derived numbers and defaults for fields an older provider did not write."""
    total = g["memory_total_mib"]
    g["memory_used_mib"] = min(g["memory_used_mib"], total)
    g.setdefault("clocks_mhz", {"graphics": 210, "sm": 210, "memory": 405, "video": 555})
    g.setdefault("max_clocks_mhz", g["clocks_mhz"])
    bus = g["bus_id"]  # 00000000:BB:DD.F
    g["pci_domain"] = int(bus[0:8], 16)
    g["pci_bus"] = int(bus[9:11], 16)
    g["pci_device"] = int(bus[12:14], 16)
    g["pci_function"] = int(bus[15], 16)
    g["minor_number"] = g["index"]


def memory_reserved_mib(g):
    # What the driver keeps for itself on a real card; counted neither as used nor free.
    return 0


def timestamp_csv():
    return datetime.datetime.now().strftime("%Y/%m/%d %H:%M:%S.%f")[:-3]


def timestamp_report():
    return time.strftime("%a %b %d %H:%M:%S %Y")


def selected(status, ids):
    """The cards -i names (indexes, UUIDs or PCI bus ids, comma-separated), in index order."""
    gpus = status["gpus"]
    if ids is None:
        return gpus
    wanted = set()
    for part in ids.split(","):
        part = part.strip()
        if not part:
            raise invalid_arguments()
        match = [g for g in gpus if str(g["index"]) == part or g["uuid"].lower() == part.lower()
                 or g["bus_id"].lower() == part.lower() or g["bus_id"][4:].lower() == part.lower()]
        if not match:
            raise SmiError("No devices were found", EXIT_NOT_FOUND)
        wanted.update(g["index"] for g in match)
    return [g for g in gpus if g["index"] in wanted]


IDLE_NAMES = {"sshd", "sh", "bash", "dash", "zsh", "sleep", "cardhour-entrypoint", "cardhour-app", "tmux: server",
              "tmux", "less", "vi", "vim", "nvidia-smi", "ps", "top", "htop", "init"}


def box_processes(status):
    """The processes of this box that do work (by memory or CPU time), spread over the cards:
    what real nvidia-smi would list as compute apps. Read from /proc, inside the container."""
    gpus = status["gpus"]
    if not gpus:
        return []
    found = []
    me = os.getpid()
    page_mib = os.sysconf("SC_PAGE_SIZE") / (1024 * 1024)
    ticks = os.sysconf("SC_CLK_TCK")
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == me:
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
            with open(f"/proc/{entry}/statm") as f:
                rss_mib = int(f.read().split()[1]) * page_mib
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                if not f.read(1):
                    continue  # a kernel thread
        except (OSError, ValueError, IndexError):
            continue
        name = stat[stat.find("(") + 1:stat.rfind(")")]
        fields = stat[stat.rfind(")") + 2:].split()
        cpu_s = (int(fields[11]) + int(fields[12])) / ticks
        if name in IDLE_NAMES or (rss_mib < 32 and cpu_s < 1):
            continue
        try:
            path = os.readlink(f"/proc/{entry}/exe")
        except OSError:
            path = name
        found.append({"pid": int(entry), "name": name, "path": path, "rss_mib": rss_mib})
    found.sort(key=lambda p: p["pid"])
    procs = []
    for i, p in enumerate(found[:16]):
        gpu = gpus[i % len(gpus)]
        used = int(min(p["rss_mib"], gpu["memory_used_mib"]))
        procs.append({"gpu": gpu["index"], "uuid": gpu["uuid"], "bus_id": gpu["bus_id"], "pid": p["pid"],
                      "name": p["name"], "path": p["path"], "used_memory_mib": used})
    return procs
