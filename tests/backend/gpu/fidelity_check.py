#!/usr/bin/env python3
"""Reads the simulated cards the way monitoring scripts written for real NVIDIA hosts do, with
parsers that are not ours: Python's csv on every --query-gpu field the tool lists, xml.etree on
-q -x (the element paths real tools read), and NVML through ctypes with the documented
signatures. Checks that all three say the same, and the real tool's error wording.

  fidelity_check.py host SMI LIBNVML   the source tree's nvidia-smi and the host-built library
                                       on a status file this script writes (and rewrites)
  fidelity_check.py box [--errors]     inside a sandbox box (installed nvidia-smi, the library
                                       the loader finds), all three on one copy of the provider's
                                       latest sample; prints the cards' numbers and the sample's
                                       time as JSON

Exit status 0 when everything agrees; otherwise the first disagreement on stderr.
"""
import csv
import ctypes
import io
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
import xml.etree.ElementTree as ET

SMI = "nvidia-smi"
NVML = "libnvidia-ml.so.1"


def fail(message):
    sys.stderr.write("FAIL: " + message + "\n")
    sys.exit(1)


def smi(*args, expect=0):
    p = subprocess.run([SMI, *args], capture_output=True, text=True, timeout=60)
    if p.returncode != expect:
        fail(f"nvidia-smi {' '.join(args)}: exit {p.returncode} (wanted {expect}): {p.stderr.strip()}")
    return p


# ---- the three readers ----------------------------------------------------------------------

def csv_fields():
    """Every field --help-query-gpu lists (first name of each entry)."""
    out = smi("--help-query-gpu").stdout
    names = [line.split('"')[1] for line in out.splitlines() if line.startswith('"')]
    if len(names) < 20:
        fail(f"--help-query-gpu lists only {len(names)} fields")
    return names


def read_csv(fields):
    out = smi(f"--query-gpu={','.join(fields)}", "--format=csv,nounits").stdout
    rows = list(csv.reader(io.StringIO(out), skipinitialspace=True))
    header, body = rows[0], rows[1:]
    if len(header) != len(fields):
        fail(f"csv header has {len(header)} columns for {len(fields)} fields: {header}")
    for row in body:
        if len(row) != len(fields):
            fail(f"csv row has {len(row)} columns for {len(fields)} fields: {row}")
    names = [h.split(" [")[0] for h in header]
    return [dict(zip(names, row)) for row in body]


def number(text):
    return float(text.split()[0])


def read_xml():
    root = ET.fromstring(smi("-q", "-x").stdout)
    cards = []
    for g in root.findall("gpu"):
        cards.append({
            "uuid": g.find("uuid").text,
            "memory_used_mib": number(g.find("fb_memory_usage/used").text),
            "memory_total_mib": number(g.find("fb_memory_usage/total").text),
            "utilization_pct": number(g.find("utilization/gpu_util").text),
            "temperature_c": number(g.find("temperature/gpu_temp").text),
            "power_w": number(g.find("gpu_power_readings/power_draw").text),
        })
    if int(root.find("attached_gpus").text) != len(cards):
        fail("attached_gpus disagrees with the <gpu> elements")
    return cards


class Memory(ctypes.Structure):
    _fields_ = [("total", ctypes.c_ulonglong), ("free", ctypes.c_ulonglong), ("used", ctypes.c_ulonglong)]


class Utilization(ctypes.Structure):
    _fields_ = [("gpu", ctypes.c_uint), ("memory", ctypes.c_uint)]


class PciInfo(ctypes.Structure):
    _fields_ = [("busIdLegacy", ctypes.c_char * 16), ("domain", ctypes.c_uint), ("bus", ctypes.c_uint),
                ("device", ctypes.c_uint), ("pciDeviceId", ctypes.c_uint), ("pciSubSystemId", ctypes.c_uint),
                ("busId", ctypes.c_char * 32)]


class ProcessInfo(ctypes.Structure):
    _fields_ = [("pid", ctypes.c_uint), ("usedGpuMemory", ctypes.c_ulonglong),
                ("gpuInstanceId", ctypes.c_uint), ("computeInstanceId", ctypes.c_uint)]


def load_nvml():
    lib = ctypes.CDLL(NVML)
    lib.nvmlErrorString.restype = ctypes.c_char_p
    return lib


def check(lib, rc, what):
    if rc != 0:
        fail(f"{what}: {rc} ({lib.nvmlErrorString(rc).decode()})")


def read_nvml(lib):
    count = ctypes.c_uint()
    check(lib, lib.nvmlDeviceGetCount_v2(ctypes.byref(count)), "nvmlDeviceGetCount_v2")
    cards = []
    for i in range(count.value):
        h = ctypes.c_void_p()
        check(lib, lib.nvmlDeviceGetHandleByIndex_v2(ctypes.c_uint(i), ctypes.byref(h)), "GetHandleByIndex_v2")
        uuid = ctypes.create_string_buffer(96)
        check(lib, lib.nvmlDeviceGetUUID(h, uuid, ctypes.c_uint(96)), "nvmlDeviceGetUUID")
        by_uuid = ctypes.c_void_p()
        check(lib, lib.nvmlDeviceGetHandleByUUID(uuid.value, ctypes.byref(by_uuid)), "GetHandleByUUID")
        if by_uuid.value != h.value:
            fail("the handle by UUID is not the handle by index")
        mem, util, temp, power = Memory(), Utilization(), ctypes.c_uint(), ctypes.c_uint()
        check(lib, lib.nvmlDeviceGetMemoryInfo(h, ctypes.byref(mem)), "nvmlDeviceGetMemoryInfo")
        check(lib, lib.nvmlDeviceGetUtilizationRates(h, ctypes.byref(util)), "GetUtilizationRates")
        check(lib, lib.nvmlDeviceGetTemperature(h, ctypes.c_int(0), ctypes.byref(temp)), "GetTemperature")
        check(lib, lib.nvmlDeviceGetPowerUsage(h, ctypes.byref(power)), "nvmlDeviceGetPowerUsage")
        pci = PciInfo()
        check(lib, lib.nvmlDeviceGetPciInfo_v3(h, ctypes.byref(pci)), "nvmlDeviceGetPciInfo_v3")
        name = ctypes.create_string_buffer(96)
        check(lib, lib.nvmlDeviceGetName(h, name, ctypes.c_uint(96)), "nvmlDeviceGetName")
        if lib.nvmlDeviceGetName(h, name, ctypes.c_uint(4)) != 7:
            fail("a short name buffer is not NVML_ERROR_INSUFFICIENT_SIZE")
        n = ctypes.c_uint(0)
        rc = lib.nvmlDeviceGetComputeRunningProcesses_v3(h, ctypes.byref(n), None)
        if rc not in (0, 7):
            fail(f"GetComputeRunningProcesses_v3 sizing: {rc}")
        cards.append({
            "uuid": uuid.value.decode(), "name": name.value.decode(), "bus_id": pci.busId.decode(),
            "memory_used_mib": mem.used // (1 << 20), "memory_total_mib": mem.total // (1 << 20),
            "utilization_pct": util.gpu, "temperature_c": temp.value, "power_w": power.value / 1000.0,
        })
    return cards


# ---- agreement ------------------------------------------------------------------------------

def from_csv(row):
    return {"uuid": row["uuid"], "memory_used_mib": float(row["memory.used"]),
            "memory_total_mib": float(row["memory.total"]), "utilization_pct": float(row["utilization.gpu"]),
            "temperature_c": float(row["temperature.gpu"]), "power_w": float(row["power.draw"])}


def same(a, b):
    keys = ("uuid", "memory_used_mib", "memory_total_mib", "utilization_pct", "temperature_c")
    return all(a[k] == b[k] for k in keys) and abs(a["power_w"] - b["power_w"]) <= 0.01


def read_all(lib, fields, attempts=10):
    """The three readers on one sample: the provider rewrites the numbers once a second, so a
    read that straddles a rewrite is taken again."""
    for _ in range(attempts):
        by_csv = [from_csv(r) for r in read_csv(fields)]
        by_xml = read_xml()
        by_nvml = read_nvml(lib)
        if len(by_csv) == len(by_xml) == len(by_nvml) and all(
                same(c, x) and same(c, n) for c, x, n in zip(by_csv, by_xml, by_nvml)):
            return by_nvml
        time.sleep(0.2)
    fail(f"csv, xml and NVML disagree:\n{by_csv}\n{by_xml}\n{by_nvml}")


def check_errors(uuid):
    p = smi("--no-such-option", expect=2)
    if p.stderr.strip() != "Invalid combination of input arguments. Please run 'nvidia-smi -h' for help.":
        fail(f"unknown option: {p.stderr!r}")
    p = smi("--query-gpu=no.such.field", "--format=csv", expect=2)
    if p.stderr.strip() != 'Field "no.such.field" is not a valid field to query.':
        fail(f"unknown field: {p.stderr!r}")
    smi("-i", "99", "-L", expect=6)
    one = smi("-i", uuid, "--query-gpu=uuid", "--format=csv,noheader").stdout.split()
    if one != [uuid]:
        fail(f"-i UUID selected {one}")
    rows = smi("dmon", "-c", "2", "-s", "pu").stdout.splitlines()
    if not rows[0].startswith("# gpu") or "sm" not in rows[0].split():
        fail(f"dmon header: {rows[:2]}")
    q = smi("-q", "-d", "MEMORY,UTILIZATION").stdout
    if "FB Memory Usage" not in q or "Utilization" not in q or "GPU Power Readings" in q:
        fail("-q -d MEMORY,UTILIZATION shows the wrong sections")


def status_doc(gpus, util):
    return {"format": "cardhour-gpu-status/1", "simulated": True, "updated_at_unix": time.time(),
            "driver_version": "550.54.15", "cuda_version": "12.4", "gpu_type": "h100-80g", "nvlinks": 18,
            "gpus": [{"index": i, "name": "NVIDIA H100 80GB HBM3", "uuid": f"GPU-sim-test-{i}",
                      "bus_id": f"00000000:{i + 1:02X}:00.0", "memory_total_mib": 81559,
                      "memory_used_mib": 1000.4 + 10 * i, "utilization_gpu": util + i,
                      "utilization_memory": util / 2, "temperature_c": 40.6 + i, "power_draw_w": 100.25 + i,
                      "power_limit_w": 700, "fan_speed_pct": 30, "pstate": "P2",
                      "clocks_mhz": {"graphics": 1500, "sm": 1500, "memory": 2619, "video": 1275},
                      "max_clocks_mhz": {"graphics": 1980, "sm": 1980, "memory": 2619, "video": 1683}}
                     for i in range(gpus)]}


def check_mig(lib, status):
    """A box lent a MIG slice: -L names the card and its MIG device as the real tool does,
    mig -lgi shows the GPU instance at its placement, and NVML reports MIG mode and the
    slice's VRAM, not the card's."""
    doc = status_doc(1, 10)
    g = doc["gpus"][0]
    g["memory_total_mib"] = 40779
    g["mig"] = {"profile": "3g.40gb", "profile_id": 9, "gpu_instance_id": 2, "compute_instance_id": 0,
                "placement_start": 4, "placement_size": 4, "compute_slices": 3, "card_compute_slices": 7,
                "card_memory_total_mib": 81559, "uuid": "MIG-sim-test-0"}
    write_status(status, doc)
    listed = smi("-L").stdout.splitlines()
    if listed != ["GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-sim-test-0)",
                  "  MIG 3g.40gb     Device  0: (UUID: MIG-sim-test-0)"]:
        fail(f"-L on a MIG slice: {listed}")
    lgi = smi("mig", "-lgi").stdout
    row = [line for line in lgi.splitlines() if "MIG 3g.40gb" in line]
    if len(row) != 1 or row[0].split()[1:7] != ["0", "MIG", "3g.40gb", "9", "2", "4:4"]:
        fail(f"mig -lgi: {lgi}")
    h, mem = ctypes.c_void_p(), Memory()
    current, pending = ctypes.c_uint(7), ctypes.c_uint(7)
    check(lib, lib.nvmlDeviceGetHandleByIndex_v2(ctypes.c_uint(0), ctypes.byref(h)), "handle")
    check(lib, lib.nvmlDeviceGetMemoryInfo(h, ctypes.byref(mem)), "memory")
    if mem.total != 40779 * 1024 * 1024:
        fail(f"NVML memory on a MIG slice: {mem.total}")
    check(lib, lib.nvmlDeviceGetMigMode(h, ctypes.byref(current), ctypes.byref(pending)), "GetMigMode")
    if (current.value, pending.value) != (1, 1):
        fail(f"MIG mode of a slice's card: {current.value}, {pending.value}")
    write_status(status, status_doc(1, 10))  # a whole card: no MIG
    smi("mig", "-lgi", expect=6)
    check(lib, lib.nvmlDeviceGetMigMode(h, ctypes.byref(current), ctypes.byref(pending)), "GetMigMode")
    if current.value != 0 or smi("-L").stdout.count("MIG") != 0:
        fail("a whole card shows MIG")


def write_status(path, doc):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(doc, f)
    os.replace(tmp, path)


def check_threads(lib, status):
    """NVML is thread-safe: readers on several threads (ctypes lets go of the GIL during a call),
    while the file is replaced under them, each get a whole card from one version of the file."""
    versions = {util: status_doc(2, util)["gpus"] for util in (30, 60)}
    errors, stop = [], threading.Event()

    def reader():
        h, mem, util = ctypes.c_void_p(), Memory(), Utilization()
        while not stop.is_set() and not errors:
            for i in range(2):
                for rc, what in ((lib.nvmlDeviceGetHandleByIndex_v2(ctypes.c_uint(i), ctypes.byref(h)), "handle"),
                                 (lib.nvmlDeviceGetMemoryInfo(h, ctypes.byref(mem)), "memory"),
                                 (lib.nvmlDeviceGetUtilizationRates(h, ctypes.byref(util)), "utilisation")):
                    if rc != 0:
                        errors.append(f"{what} on a thread: {lib.nvmlErrorString(rc).decode()}")
                        return
                if mem.free + mem.used != mem.total:
                    errors.append(f"a torn read: free {mem.free} + used {mem.used} != total {mem.total}")
                if util.gpu not in (round(v[i]["utilization_gpu"]) for v in versions.values()):
                    errors.append(f"card {i} utilisation {util.gpu} is in no version of the file")

    write_status(status, status_doc(2, 60))
    threads = [threading.Thread(target=reader) for _ in range(4)]
    for t in threads:
        t.start()
    for n in range(200):
        write_status(status, status_doc(2, 30 if n % 2 else 60))
    stop.set()
    for t in threads:
        t.join()
    if errors:
        fail(errors[0])


def main():
    global SMI, NVML
    mode = sys.argv[1] if len(sys.argv) > 1 else "box"
    if mode == "host":
        SMI, NVML = sys.argv[2], sys.argv[3]
        work = tempfile.mkdtemp()
        status = os.path.join(work, "status.json")
        os.environ["CARDHOUR_GPU_STATUS"] = status
        lib = load_nvml()
        if lib.nvmlInit_v2() != 9:
            fail("nvmlInit without a status file is not NVML_ERROR_DRIVER_NOT_LOADED")
        smi("-L", expect=9)
        write_status(status, status_doc(2, 20))
        count = ctypes.c_uint()
        if lib.nvmlDeviceGetCount_v2(ctypes.byref(count)) != 1:
            fail("a call before nvmlInit is not NVML_ERROR_UNINITIALIZED")
        check(lib, lib.nvmlInit_v2(), "nvmlInit_v2")
        fields = csv_fields()
        first = read_all(lib, fields)
        want = status_doc(2, 20)["gpus"]
        for card, g in zip(first, want):
            if card["utilization_pct"] != round(g["utilization_gpu"]) or card["memory_used_mib"] != round(
                    g["memory_used_mib"]) or card["bus_id"] != g["bus_id"]:
                fail(f"NVML {card} is not the status file's {g}")
        # Live: new numbers in the file are what all three read next.
        write_status(status, status_doc(2, 75))
        second = read_all(lib, fields)
        if [c["utilization_pct"] for c in second] != [75, 76]:
            fail(f"after the file changed, utilisation is {[c['utilization_pct'] for c in second]}")
        check_errors(first[0]["uuid"])
        topo = smi("topo", "-m").stdout
        if "GPU0\t X \tNV18" not in topo:
            fail(f"topo -m: {topo}")
        h = ctypes.c_void_p()
        if lib.nvmlDeviceGetHandleByUUID(b"GPU-nope", ctypes.byref(h)) != 6:
            fail("an unknown UUID is not NVML_ERROR_NOT_FOUND")
        if lib.nvmlDeviceGetHandleByIndex_v2(ctypes.c_uint(5), ctypes.byref(h)) != 2:
            fail("an index out of range is not NVML_ERROR_INVALID_ARGUMENT")
        check_threads(lib, status)
        check_mig(lib, status)
        check(lib, lib.nvmlShutdown(), "nvmlShutdown")
        if lib.nvmlShutdown() != 1:
            fail("a second nvmlShutdown is not NVML_ERROR_UNINITIALIZED")
        print("fidelity: csv, xml and NVML agree; error codes as documented")
        return 0
    # One sample for all three readers: the provider rewrites the file once a second, and on a
    # busy machine three readers take longer than that. Both tools honour CARDHOUR_GPU_STATUS.
    live = os.environ.get("CARDHOUR_GPU_STATUS", "/run/cardhour/gpu/status.json")
    snapshot = os.path.join(tempfile.mkdtemp(), "status.json")
    with open(live, "rb") as src, open(snapshot, "wb") as dst:
        dst.write(src.read())
    os.environ["CARDHOUR_GPU_STATUS"] = snapshot
    with open(snapshot) as f:
        updated_at = json.load(f)["updated_at_unix"]
    lib = load_nvml()
    check(lib, lib.nvmlInit_v2(), "nvmlInit_v2")
    fields = csv_fields()
    cards = read_all(lib, fields)
    if len(sys.argv) > 2 and sys.argv[2] == "--errors":
        check_errors(cards[0]["uuid"])
    print(json.dumps({"updated_at_unix": updated_at, "gpus": cards}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
