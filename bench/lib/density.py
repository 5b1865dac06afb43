"""Benchmark 6: how many `base` instances run at once here, each reachable over SSH, and the
memory each takes; floor: bare `podman run` containers of the same image and sshd setup."""
import os
import shutil
import subprocess
import tempfile
import time

from common import Sim, free_port, mem_available_kib, median, wide_catalog

import launch_to_ssh


def _ssh_ok(port, user, key, known_hosts):
    try:
        launch_to_ssh.ssh_until_ok(port, user, key, known_hosts, deadline_s=30)
        return True
    except RuntimeError:
        return False


def _container_memory_mib(podman, names, env):
    """Memory in use per container, as the engine's stats report it (cgroup, without page cache)."""
    out = subprocess.run([podman, "stats", "--no-stream", "--format", "{{.Name}} {{.MemUsage}}"] + names,
                         env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True).stdout
    values = []
    units = {"B": 1 / 1048576, "kB": 1 / 1024, "KB": 1 / 1024, "KiB": 1 / 1024, "MB": 1, "MiB": 1, "GB": 1024,
             "GiB": 1024}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 2:
            used = parts[1]
            num = "".join(ch for ch in used if ch.isdigit() or ch == ".")
            unit = used[len(num):]
            if num and unit in units:
                values.append(float(num) * units[unit])
    return values


def run(sim_exe, catalog_src, limit, floor_count, min_free_mib=2048, podman="podman", log=print):
    env = dict(os.environ)
    work = tempfile.mkdtemp(prefix="cardhour-bench-density-")
    key, ssh_dir = launch_to_ssh.prepare_keys(work)
    catalog = wide_catalog(catalog_src, os.path.join(work, "catalog"))
    result = {"limit": limit, "stopped_by": "limit"}

    # Floor: bare containers, same image, same sshd setup.
    with open(os.path.join(ssh_dir, "ssh_host_ed25519_key.pub")) as f:
        host_key = " ".join(f.read().split()[:2])
    floor_names = []
    try:
        for i in range(floor_count):
            port = free_port()
            name = f"cardhour-bench-density-floor-{os.getpid()}-{i}"
            subprocess.run([podman, "run", "-d", "--rm", "--name", name, "-p", f"127.0.0.1:{port}:22",
                            "-v", f"{ssh_dir}:/etc/cardhour/ssh:ro", "localhost/cardhour/base:latest"],
                           check=True, env=env, stdout=subprocess.DEVNULL)
            floor_names.append(name)
            known_hosts = os.path.join(work, "floor_known_hosts")
            with open(known_hosts, "w") as f:
                f.write(f"[127.0.0.1]:{port} {host_key}\n")
            if not _ssh_ok(port, "root", key, known_hosts):
                raise RuntimeError("a bare floor container did not answer SSH")
        time.sleep(2)
        floor_mem = _container_memory_mib(podman, floor_names, env)
        result["floor_count"] = floor_count
        result["floor_container_mib"] = median(floor_mem) if floor_mem else None
    finally:
        if floor_names:
            subprocess.run([podman, "rm", "-f", "-t", "0"] + floor_names, env=env, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
    log(f"  floor: {floor_count} bare containers, {result.get('floor_container_mib')} MiB each (engine stats)")

    sim = Sim(sim_exe, os.path.join(work, "sim"), "podman", catalog_dir=catalog, env=env)
    ids = []
    try:
        api = sim.api
        api.sign_up("density@example.com", topup=100_000_000_000)
        with open(key + ".pub") as f:
            key_id = api.call("POST", "/v1/ssh-keys", {"name": "bench", "public_key": f.read().strip()})["id"]
        reachable = 0
        while reachable < limit:
            if mem_available_kib() / 1024 < min_free_mib:
                result["stopped_by"] = f"less than {min_free_mib} MiB of memory available"
                break
            try:
                inst = api.call("POST", "/v1/instances", {"name": f"density-{reachable}", "gpu_type": "rtx3090",
                                                          "gpu_count": 1, "image": "base", "ssh_key_ids": [key_id]})
            except RuntimeError as error:
                result["stopped_by"] = f"launch refused: {error}"
                break
            ids.append(inst["id"])
            end = time.monotonic() + 120
            while True:
                inst = api.call("GET", f"/v1/instances/{inst['id']}")
                if inst["state"] in ("running", "failed") or time.monotonic() > end:
                    break
                time.sleep(0.05)
            if inst["state"] != "running":
                result["stopped_by"] = f"launch {reachable + 1} failed: {inst.get('state_reason')}"
                break
            reachable += 1
        # Every one at once, not only each as it came up.
        known_hosts = os.path.join(work, "known_hosts")
        listed = [i for i in api.call("GET", "/v1/instances") if i["state"] == "running"]
        with open(known_hosts, "w") as f:
            for inst in listed:
                f.write(f"[127.0.0.1]:{inst['ssh']['port']} {inst['ssh']['host_key']}\n")
        result["ssh_reachable"] = sum(_ssh_ok(i["ssh"]["port"], i["ssh"]["user"], key, known_hosts) for i in listed)
        result["running"] = len(listed)
        time.sleep(2)
        per_instance = []
        for inst in listed:
            samples = api.call("GET", f"/v1/instances/{inst['id']}/metrics").get("samples", [])
            values = [s["memory_mib"] for s in samples if s.get("memory_mib") is not None]
            if values:
                per_instance.append(values[-1])
        result["instance_mib"] = median(per_instance) if per_instance else None
        log(f"  {len(listed)} running, {result['ssh_reachable']} reachable over SSH, "
            f"{result['instance_mib']} MiB each (provider telemetry)")
    finally:
        for iid in ids:
            try:
                sim.api.call("DELETE", f"/v1/instances/{iid}")
            except RuntimeError:
                pass
        end = time.monotonic() + 120
        while ids and time.monotonic() < end:
            states = [i["state"] for i in sim.api.call("GET", "/v1/instances?include_terminated=true")
                      if i["id"] in ids]
            if all(s == "terminated" for s in states):
                break
            time.sleep(0.5)
        sim.stop()
        shutil.rmtree(work, ignore_errors=True)
    return result
