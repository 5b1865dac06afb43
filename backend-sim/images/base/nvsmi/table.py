"""The default nvidia-smi table and -L."""
import time

from mig import list_lines
from status import box_processes


def print_list(status, gpus):
    for g in gpus:
        print(f"GPU {g['index']}: {g['name']} (UUID: {g['uuid']})")
        for line in list_lines(g):
            print(line)


def _box(width, text=""):
    return "|" + text.ljust(width - 2) + "|"


def print_table(status, gpus):
    w = 91
    line = "+" + "-" * 41 + "+" + "-" * 24 + "+" + "-" * 22 + "+"
    print(time.strftime("%a %b %d %H:%M:%S %Y"))
    print("+" + "-" * (w - 2) + "+")
    print(_box(w, f" NVIDIA-SMI {status['driver_version']:<16} Driver Version: {status['driver_version']:<14}"
                  f" CUDA Version: {status['cuda_version']}"))
    print(_box(w, " CardHour Sandbox: SIMULATED GPUs. Their load follows this box's real CPU and memory use."))
    print(line)
    print("| GPU  Name                 Persistence-M | Bus-Id          Disp.A | Volatile Uncorr. ECC |")
    print("| Fan  Temp   Perf          Pwr:Usage/Cap |           Memory-Usage | GPU-Util  Compute M. |")
    print("|                                         |                        |               MIG M. |")
    print("|" + "=" * 41 + "+" + "=" * 24 + "+" + "=" * 22 + "|")
    for g in gpus:
        used = int(round(g["memory_used_mib"]))
        total = int(g["memory_total_mib"])
        power = f"{int(round(g['power_draw_w']))}W / {int(round(g['power_limit_w']))}W"
        rows = [
            (f" {g['index']:>3}  {g['name'][:25]:<25}{'Off':>9} ", f" {g['bus_id']:<16}{'Off':>6} ", f"{'Off':>21} "),
            (f" {int(round(g['fan_speed_pct'])):>3}%  {int(round(g['temperature_c'])):>3}C    {g['pstate']:<3}{power:>22} ",
             f"{f'{used}MiB / {total}MiB':>23} ", f"{int(round(g['utilization_gpu'])):>7}%      Default "),
            (" " * 41, " " * 24, f"{'Enabled' if g.get('mig') else 'N/A':>21} "),
        ]
        for cells in rows:
            print("|" + "|".join(cells) + "|")
        print(line)
    print()
    print("+" + "-" * (w - 2) + "+")
    print(_box(w, " Processes:"))
    print(_box(w, "  GPU   GI   CI        PID   Type   Process name                              GPU Memory"))
    print(_box(w, "        ID   ID                                                               Usage"))
    print("|" + "=" * (w - 2) + "|")
    indexes = {g["index"] for g in gpus}
    procs = [p for p in box_processes(status) if p["gpu"] in indexes]
    if not procs:
        print(_box(w, "  No running processes found"))
    mig = {g["index"]: g["mig"] for g in gpus if g.get("mig")}
    for p in procs:
        m = mig.get(p["gpu"])
        gi, ci = (str(m["gpu_instance_id"]), str(m["compute_instance_id"])) if m else ("N/A", "N/A")
        print(_box(w, f"  {p['gpu']:>3}  {gi:>4} {ci:>4}  {p['pid']:>9}      C   {p['name'][:40]:<40}"
                      f"{str(int(p['used_memory_mib'])) + 'MiB':>10}"))
    print("+" + "-" * (w - 2) + "+")
