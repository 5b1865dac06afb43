"""Benchmark 6: how many `base` instances run at once here, every one reachable over SSH and
reporting telemetry each second, and the memory each takes counted whole (its cgroup plus conmon
and the network helpers the engine keeps for it outside; density_memory). Floor: bare
`podman run` containers of the same image and sshd setup, counted the same way."""
import concurrent.futures
import datetime
import http.client
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import traceback

from common import Sim, cpu_seconds, free_port, mem_available_kib, median, proc_status, wide_catalog
from density_memory import whole_memory

import launch_to_ssh

# How many SSH handshakes run at once when every host is checked (each is an ssh process).
SSH_CHECKS_AT_ONCE = 12

# The kernel's TCP counters that say who reset or dropped a connection (nstat, iproute2).
_TCP_COUNTERS = ("TcpAttemptFails", "TcpEstabResets", "TcpOutRsts", "TcpExtListenOverflows",
                 "TcpExtListenDrops", "TcpExtTCPAbortOnData", "TcpExtTCPAbortOnClose",
                 "TcpExtTCPAbortOnMemory", "TcpExtTCPAbortOnTimeout", "TcpExtTCPAbortOnLinger",
                 "TcpExtTCPBacklogDrop", "TcpExtTCPReqQFullDrop", "TcpExtTCPReqQFullDoCookies",
                 "TcpExtTW", "TcpExtTCPTimeWaitOverflow")


def _tcp_counters():
    """The counters above, absolute (nstat -a -z -s: no history file is read or written)."""
    try:
        out = subprocess.run(["nstat", "-a", "-z", "-s"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                             text=True, timeout=10).stdout
    except (OSError, subprocess.TimeoutExpired):
        return {}
    values = {}
    for line in out.splitlines():
        fields = line.split()
        if len(fields) >= 2 and fields[0] in _TCP_COUNTERS:
            values[fields[0]] = int(fields[1])
    return values


def _moved(before, after):
    return ", ".join(f"{k} +{after[k] - before.get(k, 0)}" for k in _TCP_COUNTERS
                     if k in after and after[k] != before.get(k, 0)) or "none"


def _bench_frames(tb):
    """Where in the benchmark's own code an exception came from (bench/run prints only its
    message), innermost first: e.g. which API call of which step was reset."""
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    own = [f for f in traceback.extract_tb(tb) if os.path.abspath(f.filename).startswith(here + os.sep)]
    return " ← ".join(f"{os.path.basename(f.filename)}:{f.lineno} {f.name}" for f in reversed(own[-3:])) or "?"


def _iso(epoch_s):
    return datetime.datetime.fromtimestamp(epoch_s, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.000Z")


def _ssh_ok(port, user, key, known_hosts, deadline_s=60):
    try:
        launch_to_ssh.ssh_until_ok(port, user, key, known_hosts, deadline_s=deadline_s)
        return True
    except RuntimeError:
        return False


def _ssh_all(hosts, key, known_hosts):
    """Every (port, user) checked with one handshake each, SSH_CHECKS_AT_ONCE at a time; how many
    answered and how long the whole pass took."""
    t0 = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(SSH_CHECKS_AT_ONCE) as pool:
        answered = sum(pool.map(lambda h: _ssh_ok(h[0], h[1], key, known_hosts), hosts))
    return answered, time.monotonic() - t0


def _remove_leftovers(podman, env, provider_id, floor_prefix):
    """Whatever this run left behind (a crash, ctrl-c): its containers and volumes, by label and name."""
    def ids(args):
        return subprocess.run([podman] + args, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              text=True).stdout.split()
    containers = ids(["ps", "-a", "-q", "--filter", f"name={floor_prefix}"])
    if provider_id:
        containers += ids(["ps", "-a", "-q", "--filter", f"label=cardhour.provider={provider_id}"])
    if containers:
        subprocess.run([podman, "rm", "-f", "-t", "0"] + containers, env=env, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
    volumes = ids(["volume", "ls", "-q", "--filter", f"label=cardhour.provider={provider_id}"]) if provider_id else []
    if volumes:
        subprocess.run([podman, "volume", "rm", "-f"] + volumes, env=env, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
    return len(containers)


def _floor(podman, env, work, key, ssh_dir, count, prefix, log):
    with open(os.path.join(ssh_dir, "ssh_host_ed25519_key.pub")) as f:
        host_key = " ".join(f.read().split()[:2])
    names, hosts = [], []
    for i in range(count):
        port = free_port()
        name = f"{prefix}{i}"
        subprocess.run([podman, "run", "-d", "--rm", "--name", name, "-p", f"127.0.0.1:{port}:22",
                        "-v", f"{ssh_dir}:/etc/cardhour/ssh:ro", "localhost/cardhour/base:latest"],
                       check=True, env=env, stdout=subprocess.DEVNULL)
        names.append(name)
        hosts.append((port, "root"))
    known_hosts = os.path.join(work, "floor_known_hosts")
    with open(known_hosts, "w") as f:
        f.writelines(f"[127.0.0.1]:{port} {host_key}\n" for port, _ in hosts)
    answered, _ = _ssh_all(hosts, key, known_hosts)
    if answered != count:
        raise RuntimeError(f"{count - answered} bare floor containers did not answer SSH")
    time.sleep(2)
    mem = whole_memory(podman, names, env)
    log(f"  floor: {count} bare containers, whole {mem['whole_mib']:.2f} MiB each (cgroup "
        f"{mem['inside_mib']:.2f} + outside {mem['outside_mib']:.2f}: "
        + ", ".join(f"{n} {v:.2f}" for n, v in mem["outside_by_process_mib"].items()) + ")")
    return {k: v for k, v in mem.items() if k != "per_container"}


class _Launcher:
    """Launches through the API, `parallel` at a time (what a user with a few terminals or a
    script does), each waited for until running; stops at the first refusal or failure, or when
    less than `min_free_mib` of memory is left, or after `max_launch_s` of launching."""

    def __init__(self, api, key_id, limit, parallel, min_free_mib, max_launch_s=None):
        self.api, self.key_id, self.limit, self.parallel, self.min_free_mib = api, key_id, limit, parallel, min_free_mib
        self.deadline = time.monotonic() + max_launch_s if max_launch_s else None
        self.max_launch_s = max_launch_s
        self.lock = threading.Lock()
        self.ids, self.running, self.started = [], 0, 0
        self.stopped_by = "limit"
        self.stop = threading.Event()
        self.ready_s = []

    def _one(self):
        while not self.stop.is_set():
            with self.lock:
                if self.started >= self.limit:
                    return
                if mem_available_kib() / 1024 < self.min_free_mib:
                    self._halt(f"less than {self.min_free_mib} MiB of memory available")
                    return
                if self.deadline and time.monotonic() > self.deadline:
                    self._halt(f"time: launches stopped after {self.max_launch_s / 60:.0f} min")
                    return
                n = self.started
                self.started += 1
            t0 = time.monotonic()
            try:
                inst = self.api.call("POST", "/v1/instances", {"name": f"density-{n}", "gpu_type": "rtx3090",
                                                               "gpu_count": 1, "image": "base",
                                                               "ssh_key_ids": [self.key_id]})
            except RuntimeError as error:
                self._halt(f"launch refused: {error}")
                return
            with self.lock:
                self.ids.append(inst["id"])
            end = time.monotonic() + 180
            while not self.stop.is_set():
                inst = self.api.call("GET", f"/v1/instances/{inst['id']}")
                if inst["state"] in ("running", "failed") or time.monotonic() > end:
                    break
                time.sleep(0.1)
            if inst["state"] != "running":
                if not self.stop.is_set():
                    self._halt(f"launch {n + 1} {inst['state']}: {inst.get('state_reason')}")
                return
            with self.lock:
                self.running += 1
                self.ready_s.append(time.monotonic() - t0)

    def _halt(self, why):
        if not self.stop.is_set():
            self.stopped_by = why
            self.stop.set()

    def run(self, log):
        progress = threading.Thread(target=self._progress, args=(log,), daemon=True)
        progress.start()
        try:
            with concurrent.futures.ThreadPoolExecutor(self.parallel) as pool:
                for f in [pool.submit(self._one) for _ in range(self.parallel)]:
                    f.result()
        finally:  # also on ctrl-c: the workers stop launching
            self.stop.set()

    def _progress(self, log):
        while not self.stop.wait(30):
            log(f"  … {self.running} running, {len(self.ids)} launched, "
                f"{mem_available_kib() / 1048576:.1f} GiB available, load {os.getloadavg()[0]:.1f}")


def _children_cpu_seconds(pid):
    """cutime + cstime: the CPU of the podman processes the provider ran and waited for."""
    with open(f"/proc/{pid}/stat") as f:
        text = f.read()
    fields = text[text.rindex(")") + 2:].split()
    return (int(fields[13]) + int(fields[14])) / os.sysconf("SC_CLK_TCK")


def _engine_service_pids(pid):
    """The long-running podman processes the provider started (its API service): their CPU is
    not in cutime until they end."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                text = f.read()
        except OSError:
            continue
        comm = text[text.index("(") + 1:text.rindex(")")]
        if comm == "podman" and int(text[text.rindex(")") + 2:].split()[1]) == pid:
            found.append(int(entry))
    return found


def _service_cpu_seconds(pids):
    total = 0.0
    for p in pids:
        try:
            total += cpu_seconds(p)
        except OSError:
            pass
    return total


def _telemetry_window(api, pid, instances, seconds):
    """The provider's CPU (its own, and its podman calls') and RSS over `seconds`, and how many
    instances have a sample for (nearly) every second of it, as benchmark 8 counts."""
    service = _engine_service_pids(pid)
    service0 = _service_cpu_seconds(service)
    cpu0, child0, t0, start = cpu_seconds(pid), _children_cpu_seconds(pid), time.monotonic(), time.time()
    time.sleep(seconds)
    cpu1, child1, t1, end = cpu_seconds(pid), _children_cpu_seconds(pid), time.monotonic(), time.time()
    service1 = _service_cpu_seconds(service)
    counts, memory = [], []
    for inst in instances:
        got = api.call("GET", f"/v1/instances/{inst['id']}/metrics?since={_iso(start)}")
        samples = [s for s in got.get("samples", []) if s.get("at", "") <= _iso(end)]
        counts.append(len(samples))
        values = [s["memory_mib"] for s in samples if s.get("memory_mib") is not None]
        if values:
            memory.append(values[-1])
    expected = int(end - start)
    return {"seconds": seconds, "samples_expected": expected, "samples_min": min(counts) if counts else 0,
            "reporting": sum(1 for n in counts if n >= expected - 1),
            "provider_cpu_pct": 100.0 * (cpu1 - cpu0) / (t1 - t0), "provider_rss_kib": proc_status(pid, "VmRSS"),
            "podman_cpu_pct": 100.0 * (child1 - child0) / (t1 - t0),
            "service_cpu_pct": 100.0 * (service1 - service0) / (t1 - t0) if service else None,
            "telemetry_mib": median(memory) if memory else None}


def _delete_all(sim, podman, env, provider_id):
    """Every instance deleted through the API and waited for, then its container's removal (the
    API says "terminated" before the engine has removed the container); the seconds it took."""
    t0 = time.monotonic()
    ids = [i["id"] for i in sim.api.call("GET", "/v1/instances")] if sim.proc.poll() is None else []
    for iid in ids:
        try:
            sim.api.call("DELETE", f"/v1/instances/{iid}")
        except RuntimeError:
            pass
    end = time.monotonic() + 600
    while ids and time.monotonic() < end:
        states = [i["state"] for i in sim.api.call("GET", "/v1/instances?include_terminated=true")
                  if i["id"] in ids]
        if all(s == "terminated" for s in states):
            break
        time.sleep(1)
    while ids and provider_id and time.monotonic() < end:
        left = subprocess.run([podman, "ps", "-a", "-q", "--filter", f"label=cardhour.provider={provider_id}"],
                              env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True).stdout.split()
        if not left:
            break
        time.sleep(2)
    return time.monotonic() - t0


def run(sim_exe, catalog_src, limit, floor_count, parallel=4, seconds=30, min_free_mib=2048, podman="podman",
        log=print, max_launch_s=None):
    env = dict(os.environ)
    work = tempfile.mkdtemp(prefix="cardhour-bench-density-")
    key, ssh_dir = launch_to_ssh.prepare_keys(work)
    catalog = wide_catalog(catalog_src, os.path.join(work, "catalog"), capacity=max(4096, limit))
    result = {"limit": limit, "parallel": parallel, "stopped_by": "limit", "port_handler": "slirp4netns"}
    floor_prefix = f"cardhour-bench-density-floor-{os.getpid()}-"
    provider_id = None
    sim = None
    previous_term = signal.getsignal(signal.SIGTERM)

    def on_term(*_):
        raise KeyboardInterrupt("SIGTERM")  # the finally blocks below clean up

    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, on_term)
    tcp_before = {}
    try:
        try:
            result["floor"] = _floor(podman, env, work, key, ssh_dir, floor_count, floor_prefix, log)
        finally:
            _remove_leftovers(podman, env, None, floor_prefix)

        # The provider's own network for podman boxes: slirp4netns forwarding the port itself.
        sim = Sim(sim_exe, os.path.join(work, "sim"), "podman", catalog_dir=catalog, env=env)
        with open(os.path.join(work, "sim", "provider-id")) as f:
            provider_id = f.read().strip()
        api = sim.api
        api.sign_up("density@example.com", topup=100_000_000_000)
        with open(key + ".pub") as f:
            key_id = api.call("POST", "/v1/ssh-keys", {"name": "bench", "public_key": f.read().strip()})["id"]
        base_rss = proc_status(sim.proc.pid, "VmRSS")
        tcp_before = _tcp_counters()
        launcher = _Launcher(api, key_id, limit, parallel, min_free_mib, max_launch_s)
        t0 = time.monotonic()
        launcher.run(log)
        result["launch_s"] = time.monotonic() - t0
        result["stopped_by"] = launcher.stopped_by
        result["ready_s_median"] = median(launcher.ready_s)
        # How the launch time grows with the count: the median of each tenth, in launch order.
        tenth = max(1, len(launcher.ready_s) // 10)
        result["ready_s_by_tenth"] = [round(median(launcher.ready_s[i:i + tenth]), 2)
                                      for i in range(0, len(launcher.ready_s), tenth)][:10]
        log(f"  {launcher.running} running after {result['launch_s']:.0f} s ({parallel} at a time, median "
            f"{result['ready_s_median']:.1f} s each to running, by tenth of the launches "
            + " / ".join(f"{t:.1f}" for t in result["ready_s_by_tenth"]) + f" s); stopped by: {launcher.stopped_by}")

        # Every one at once, not only each as it came up.
        everyone = api.call("GET", "/v1/instances")
        listed = [i for i in everyone if i["state"] == "running"]
        for gone in (i for i in everyone if i["state"] != "running"):
            # One that ran and no longer does: the provider's reason, and what it logged of it.
            lines = [line for line in sim.log().splitlines() if gone["id"] in line][-4:]
            log(f"  instance {gone['id']} is {gone['state']} ({gone.get('state_reason')}); the provider logged:\n"
                + "\n".join("    " + line[:300] for line in lines))
        result["left_running"] = len(everyone) - len(listed)
        known_hosts = os.path.join(work, "known_hosts")
        with open(known_hosts, "w") as f:
            f.writelines(f"[127.0.0.1]:{i['ssh']['port']} {i['ssh']['host_key']}\n" for i in listed)
        result["running"] = len(listed)
        result["ssh_reachable"], result["ssh_pass_s"] = _ssh_all(
            [(i["ssh"]["port"], i["ssh"]["user"]) for i in listed], key, known_hosts)
        log(f"  {result['ssh_reachable']} of {len(listed)} answered SSH in one pass of "
            f"{result['ssh_pass_s']:.0f} s ({SSH_CHECKS_AT_ONCE} at a time)")

        result["telemetry"] = _telemetry_window(api, sim.proc.pid, listed, seconds)
        tel = result["telemetry"]
        result["provider_rss_per_instance_kib"] = ((tel["provider_rss_kib"] - base_rss) / len(listed)
                                                   if listed else None)
        log(f"  {tel['reporting']} of {len(listed)} reporting each second over {seconds} s (fewest samples "
            f"{tel['samples_min']} of {tel['samples_expected']}); provider {tel['provider_cpu_pct']:.1f} % CPU "
            f"(+ {tel['podman_cpu_pct']:.1f} % in podman commands it ran"
            + (f", + {tel['service_cpu_pct']:.1f} % in podman's API service" if tel.get("service_cpu_pct") is not None
               else "") + "), "
            f"RSS {tel['provider_rss_kib'] / 1024:.1f} MiB")

        names = [f"cardhour-{i['id']}" for i in listed]
        mem = whole_memory(podman, names, env)
        result["memory"] = {k: v for k, v in mem.items() if k != "per_container"}
        floor_whole = result["floor"]["whole_mib"]
        result["whole_ratio"] = mem["whole_mib"] / floor_whole if floor_whole else None
        log(f"  whole {mem['whole_mib']:.2f} MiB per instance (cgroup {mem['inside_mib']:.2f} + outside "
            f"{mem['outside_mib']:.2f}: " + ", ".join(f"{n} {v:.2f}" for n, v in mem["outside_by_process_mib"].items())
            + f"), {result['whole_ratio']:.2f}× the bare container's whole {floor_whole:.2f} MiB; provider "
            f"telemetry says {tel['telemetry_mib']} MiB inside")
    except Exception:
        # What the provider said last, before its folder goes: why a call was refused or reset.
        if sim is not None:
            state = "running" if sim.proc.poll() is None else f"ended with {sim.proc.returncode}"
            tail = "\n".join(sim.log().splitlines()[-15:])
            log(f"  the provider ({state}) logged last:\n" + "\n".join("    " + l for l in tail.splitlines()))
            # Whether the kernel reset or dropped connections (a full accept queue, data after a
            # close) while the provider said nothing about closing one.
            log(f"  TCP counters moved since the launches began: {_moved(tcp_before, _tcp_counters())}")
            log(f"  raised at {_bench_frames(sys.exc_info()[2])}")
        raise
    finally:
        if sim is not None:
            try:
                result["cleanup_s"] = _delete_all(sim, podman, env, provider_id)
                log(f"  every instance deleted through the API and its container removed by the provider in "
                    f"{result['cleanup_s']:.0f} s")
            except (OSError, RuntimeError, http.client.HTTPException) as error:
                # A ctrl-c reaches the provider too (one process group): what it did not remove
                # goes by label below.
                log(f"  the provider did not remove its instances ({type(error).__name__}: {error})")
            sim.stop()
        left = _remove_leftovers(podman, env, provider_id, floor_prefix)
        if left:
            log(f"  removed {left} containers the provider had not removed")
        result["left_behind"] = left
        if threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGTERM, previous_term)
        shutil.rmtree(work, ignore_errors=True)
    return result
