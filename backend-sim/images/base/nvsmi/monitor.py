"""nvidia-smi dmon (one line per card per interval) and topo -m (how the cards are connected)."""
import os
import sys
import time

from status import invalid_arguments, load_status, selected

# dmon -s letters → columns: (name, unit, value(gpu) or None for "-").
DMON_GROUPS = {
    "p": [("pwr", "W", lambda g: int(round(g["power_draw_w"]))),
          ("gtemp", "C", lambda g: int(round(g["temperature_c"]))),
          ("mtemp", "C", None)],
    "u": [("sm", "%", lambda g: int(round(g["utilization_gpu"]))),
          ("mem", "%", lambda g: int(round(g["utilization_memory"]))),
          ("enc", "%", lambda g: 0), ("dec", "%", lambda g: 0),
          ("jpg", "%", lambda g: 0), ("ofa", "%", lambda g: 0)],
    "c": [("mclk", "MHz", lambda g: g["clocks_mhz"]["memory"]),
          ("pclk", "MHz", lambda g: g["clocks_mhz"]["graphics"])],
    "v": [("pviol", "%", lambda g: 0), ("tviol", "bool", lambda g: 0)],
    "m": [("fb", "MB", lambda g: int(round(g["memory_used_mib"]))), ("bar1", "MB", lambda g: 1),
          ("ccpm", "MB", lambda g: 0)],
    "e": [("sbecc", "errs", None), ("dbecc", "errs", None), ("pci", "errs", lambda g: 0)],
    "t": [("rxpci", "MB/s", lambda g: 0), ("txpci", "MB/s", lambda g: 0)],
}


def _option_value(args, i):
    if i + 1 >= len(args):
        raise invalid_arguments()
    return args[i + 1]


def dmon(args):
    groups, count, delay, ids = "puc", None, 1, None
    i = 0
    while i < len(args):
        a = args[i]
        if a in ("-s", "--select"):
            groups = _option_value(args, i)
            i += 1
        elif a in ("-c", "--count"):
            count = _option_value(args, i)
            i += 1
        elif a in ("-d", "--delay"):
            delay = _option_value(args, i)
            i += 1
        elif a in ("-i", "--id"):
            ids = _option_value(args, i)
            i += 1
        else:
            raise invalid_arguments()
        i += 1
    try:
        count = None if count is None else int(count)
        delay = int(delay)
    except ValueError:
        raise invalid_arguments()
    if (count is not None and count < 1) or delay < 1 or not groups or any(c not in DMON_GROUPS for c in groups):
        raise invalid_arguments()
    columns = [col for letter in "pucvmet" if letter in groups for col in DMON_GROUPS[letter]]
    print("# gpu " + " ".join(f"{name:>6}" for name, _u, _f in columns))
    print("# Idx " + " ".join(f"{unit:>6}" for _n, unit, _f in columns))
    sys.stdout.flush()
    done = 0
    while count is None or done < count:
        status = load_status()
        for g in selected(status, ids):
            print(f"{g['index']:>5} " + " ".join(f"{('-' if f is None else f(g)):>6}" for _n, _u, f in columns))
        sys.stdout.flush()
        done += 1
        if count is None or done < count:
            time.sleep(delay)
    return 0


def _cpu_ranges(cpus):
    cpus = sorted(cpus)
    ranges, start = [], None
    for i, c in enumerate(cpus):
        if start is None:
            start = c
        if i + 1 == len(cpus) or cpus[i + 1] != c + 1:
            ranges.append(str(start) if start == c else f"{start}-{c}")
            start = None
    return ",".join(ranges)


LEGEND = """Legend:

  X    = Self
  SYS  = Connection traversing PCIe as well as the SMP interconnect between NUMA nodes (e.g., QPI/UPI)
  NODE = Connection traversing PCIe as well as the interconnect between PCIe Host Bridges within a NUMA node
  PHB  = Connection traversing PCIe as well as a PCIe Host Bridge (typically the CPU)
  PXB  = Connection traversing multiple PCIe bridges (without traversing the PCIe Host Bridge)
  PIX  = Connection traversing at most a single PCIe bridge
  NV#  = Connection traversing a bonded set of # NVLinks"""


def topo(args):
    if args not in (["-m"], ["--matrix"]):
        raise invalid_arguments()
    status = load_status()
    gpus = status["gpus"]
    links = int(status.get("nvlinks", 0))
    link = f"NV{links}" if links > 0 else "PHB"
    affinity = _cpu_ranges(os.sched_getaffinity(0))
    print("\t" + "".join(f"GPU{g['index']}\t" for g in gpus) + "CPU Affinity\tNUMA Affinity\tGPU NUMA ID")
    for g in gpus:
        cells = [" X " if h["index"] == g["index"] else link for h in gpus]
        print(f"GPU{g['index']}\t" + "\t".join(cells) + f"\t{affinity}\t0\t\tN/A")
    print()
    print(LEGEND)
    print()
    print("CardHour Sandbox: SIMULATED topology ("
          + (f"{links} NVLinks between every two cards" if links > 0 else "PCIe through the host bridge")
          + ", as the card type has).")
    return 0
