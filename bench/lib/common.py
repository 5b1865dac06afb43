"""Shared pieces of the benchmarks: statistics, the provider's API, a cardhour-sim to measure."""
import http.client
import json
import os
import re
import shutil
import socket
import statistics
import subprocess
import time


def percentile(values, p):
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    k = (len(ordered) - 1) * p / 100.0
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def median(values):
    return statistics.median(values) if values else float("nan")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Api:
    """A keep-alive-free JSON client of the provider's API (each call its own connection)."""

    def __init__(self, port):
        self.port = port
        self.token = None
        self.source = None  # (address, port) to connect from, e.g. another loopback address

    def call(self, method, path, body=None):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60, source_address=self.source)
        headers = {"Content-Type": "application/json"}
        if self.token:
            headers["Authorization"] = "Bearer " + self.token
        conn.request(method, path, json.dumps(body) if body is not None else None, headers)
        resp = conn.getresponse()
        data = resp.read()
        conn.close()
        if resp.status >= 300:
            raise RuntimeError(f"{method} {path}: {resp.status} {data[:300]!r}")
        return json.loads(data) if data else None

    def raw(self, path):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        conn.request("GET", path, headers={"Authorization": "Bearer " + self.token})
        resp = conn.getresponse()
        data = resp.read()
        conn.close()
        if resp.status != 200:
            raise RuntimeError(f"GET {path}: {resp.status}")
        return data

    def sign_up(self, email, password="bench-password", topup=1_000_000_000):
        self.token = self.call("POST", "/v1/auth/signup", {"email": email, "password": password})["token"]
        self.call("POST", "/v1/billing/topup", {"amount_micros": topup})
        return self.token


class Sim:
    """A cardhour-sim on a free port with its own data folder; stop() ends it."""

    def __init__(self, exe, data_dir, runtime, catalog_dir=None, env=None, extra_args=()):
        self.data_dir = data_dir
        os.makedirs(data_dir, exist_ok=True)
        self.err_path = os.path.join(data_dir, "sim.err")
        args = [exe, "--listen", "127.0.0.1:0", "--data", data_dir, "--runtime", runtime]
        if catalog_dir:
            args += ["--catalog", catalog_dir]
        args += list(extra_args)
        self.proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=open(self.err_path, "w"),
                                     env=env or dict(os.environ), text=True)
        line = self.proc.stdout.readline()
        if not line.startswith("listening"):
            self.proc.kill()
            raise RuntimeError("cardhour-sim did not start: " + self.log()[-2000:])
        self.port = int(line.strip().rsplit(":", 1)[1])
        self.api = Api(self.port)

    def log(self):
        with open(self.err_path, errors="replace") as f:
            return f.read()

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(60)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def wide_catalog(source_dir, target_dir, capacity=4096):
    """The built-in catalog with every card type's capacity and the per-user instance limit
    raised, for benchmarks that need more instances at once than the sandbox allows by default."""
    os.makedirs(target_dir, exist_ok=True)
    with open(os.path.join(source_dir, "gpus.json")) as f:
        gpus = json.load(f)
    for gpu in gpus["gpus"]:
        gpu["capacity"] = capacity
    gpus.setdefault("user_limits", {})["instances"] = capacity
    with open(os.path.join(target_dir, "gpus.json"), "w") as f:
        json.dump(gpus, f)
    shutil.copy(os.path.join(source_dir, "images.json"), os.path.join(target_dir, "images.json"))
    return target_dir


def launch_many(api, count, image="base", gpu_type="rtx4090", ssh_key_ids=(), timeout_s=120):
    """Launches `count` instances and waits until all run; returns their JSON views."""
    ids = []
    for i in range(count):
        inst = api.call("POST", "/v1/instances", {"name": f"bench-{i}", "gpu_type": gpu_type, "gpu_count": 1,
                                                  "image": image, "ssh_key_ids": list(ssh_key_ids)})
        ids.append(inst["id"])
    end = time.monotonic() + timeout_s
    while True:
        listed = {i["id"]: i for i in api.call("GET", "/v1/instances")}
        states = [listed[i]["state"] for i in ids if i in listed]
        if states.count("running") == count:
            return [listed[i] for i in ids]
        if "failed" in states:
            raise RuntimeError("an instance failed: " + str([listed[i].get("state_reason") for i in ids
                                                              if listed[i]["state"] == "failed"][:1]))
        if time.monotonic() > end:
            raise RuntimeError(f"only {states.count('running')} of {count} instances running after {timeout_s} s")
        time.sleep(0.2)


def proc_status(pid, key):
    """A field of /proc/<pid>/status in KiB (VmRSS, VmHWM), or None."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(key + ":"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def cpu_seconds(pid):
    """utime + stime of a process, in seconds, from /proc/<pid>/stat."""
    with open(f"/proc/{pid}/stat") as f:
        text = f.read()
    fields = text[text.rindex(")") + 2:].split()
    ticks = int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def mem_available_kib():
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith("MemAvailable:"):
                return int(line.split()[1])
    return 0


def machine():
    """What the report says about this machine, read at the start of the run."""
    cpu = "unknown"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    with open("/proc/meminfo") as f:
        total_kib = int(re.search(r"MemTotal:\s+(\d+)", f.read()).group(1))
    load = os.getloadavg()
    return {"nproc": os.cpu_count(), "cpu": cpu, "memory_gib": round(total_kib / 1048576, 1),
            "load": f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f}", "kernel": os.uname().release}
