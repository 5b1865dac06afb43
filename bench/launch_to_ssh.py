#!/usr/bin/env python3
"""Launch to SSH-ready, against its floor, in the same run (benchmark 1 of bench/run).

CardHour: POST /v1/instances on a real cardhour-sim (podman runtime) until the first command
over OpenSSH succeeds (StrictHostKeyChecking=yes, known_hosts pinned from the API's host key).
Floor: a bare `podman run -d` of the same image with the same sshd setup, then the same ssh loop.
Runs alternate (floor, CardHour, floor, ...) so that noise on a shared machine hits both alike.

Each CardHour launch is also split into its steps, from the instance's launch stages (times the
provider recorded: requested, image, container, sshd, ready) and the provider's log line
"ready ... after N ms (create; sshd answered after M ms, K probes)".

With the desktop's SSH tool (bench/SshFirstCommand.cpp, built by bench/run) each round also
launches once more, and runs the floor once more, with the first command over the desktop
client's own path instead of OpenSSH: core's SshConnection (libssh, the same host key pinned,
one exec channel), started before the launch as the desktop is, told the port once the API says
running.

Run alone it prints a table and, with --csv, appends one row per run to that file.
"""
import argparse
import csv
import datetime
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from common import Sim, free_port, median, percentile  # noqa: E402

READY_LOG = re.compile(r"instance (\S+) ready on \S+ after (\d+) ms \((create|start); sshd answered after (\d+) ms, "
                       r"(\d+) probes\)")

# The steps of a launch, each between two recorded moments.
STEPS = [
    ("api_to_runtime", "POST accepted → runtime starts (image stage)", "requested", "image"),
    ("container", "image stage → container running (volume create + create + start: the engine's REST API, "
                  "else its command line)", "image", "container"),
    ("sshd", "container running → sshd answers the provider's probe", "sshd", "ready"),
    ("ready_to_client_ssh", "provider ready → first client command over SSH ok", "ready", "client_ssh"),
]


def iso_ms(text):
    return datetime.datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(
        tzinfo=datetime.timezone.utc).timestamp() * 1000.0


def ssh_until_ok(port, user, key, known_hosts, deadline_s=60, extra_options=()):
    """Runs `true` over ssh until it succeeds; returns the time of success."""
    cmd = ["ssh", "-q", *extra_options, "-p", str(port), "-i", key, "-o", "UserKnownHostsFile=" + known_hosts,
           "-o", "StrictHostKeyChecking=yes", "-o", "BatchMode=yes", "-o", "ConnectTimeout=5",
           "-o", "ConnectionAttempts=1", "-o", "LogLevel=ERROR", f"{user}@127.0.0.1", "true"]
    end = time.monotonic() + deadline_s
    while time.monotonic() < end:
        if subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL).returncode == 0:
            return time.monotonic()
        time.sleep(0.02)
    raise RuntimeError(f"ssh to port {port} did not succeed within {deadline_s} s")


class DesktopSsh:
    """cardhour-bench-ssh-first, started ahead (the desktop is already open when a host becomes
    ready); connect() hands it the target and returns the moment its first command succeeded."""

    def __init__(self, exe, key):
        self.proc = subprocess.Popen([exe, "--key", key], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)

    def connect(self, port, user, host_key_sha256, deadline_s=60):
        out, err = self.proc.communicate(f"{port} {user} {host_key_sha256}\n", timeout=deadline_s + 10)
        t = time.monotonic()
        if self.proc.returncode != 0:
            raise RuntimeError(f"the desktop's SSH to port {port} failed: {err.strip()}")
        return t, json.loads(out.strip().splitlines()[-1])

    def close(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def host_key_sha256(key_line):
    """SHA256:... of a "type base64" public key line (as the API's ssh.host_key_sha256)."""
    out = subprocess.run(["ssh-keygen", "-l", "-E", "sha256", "-f", "-"], input=key_line + "\n",
                         stdout=subprocess.PIPE, text=True, check=True).stdout
    return out.split()[1]


def wait_until_removed(podman, instance_id, deadline_s=30):
    """Waits until the engine holds no container of the instance: "terminated" comes before
    the container's removal ends, and that removal would otherwise overlap the next launch
    (the floor's, which ran on a busy engine then)."""
    end = time.monotonic() + deadline_s
    while time.monotonic() < end:
        left = subprocess.run([podman, "ps", "-a", "-q", "--filter", f"label=cardhour.instance={instance_id}"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True).stdout.strip()
        if not left:
            return
        time.sleep(0.05)
    raise RuntimeError(f"the container of instance {instance_id} was not removed within {deadline_s} s")


def cardhour_launch(api, key_id, image, key, work, podman="podman", desktop_ssh_exe=None):
    """desktop_ssh_exe: the first command goes over the desktop's SSH path instead of OpenSSH
    (and the OpenSSH-only measures for scale are skipped)."""
    desktop = DesktopSsh(desktop_ssh_exe, key) if desktop_ssh_exe else None
    try:
        return _cardhour_launch(api, key_id, image, key, work, podman, desktop)
    finally:
        if desktop:
            desktop.close()


def _cardhour_launch(api, key_id, image, key, work, podman, desktop):
    t0 = time.monotonic()
    t0_wall = time.time() * 1000.0
    inst = api.call("POST", "/v1/instances", {"name": "bench", "gpu_type": "rtx4090", "gpu_count": 1,
                                               "image": image, "ssh_key_ids": [key_id]})
    iid = inst["id"]
    while True:
        inst = api.call("GET", f"/v1/instances/{iid}")
        if inst["state"] == "running":
            t_running = time.monotonic()
            break
        if inst["state"] == "failed":
            raise RuntimeError("instance failed: " + str(inst.get("state_reason")))
        if time.monotonic() - t0 > 60:
            raise RuntimeError("instance not running after 60 s")
        time.sleep(0.01)
    ssh = inst["ssh"]
    extra = {}
    if desktop:
        t_ssh, extra["desktop_ssh"] = desktop.connect(ssh["port"], ssh["user"], ssh["host_key_sha256"])
    else:
        known_hosts = os.path.join(work, "known_hosts")
        with open(known_hosts, "w") as f:
            f.write(f"[127.0.0.1]:{ssh['port']} {ssh['host_key']}\n")
        t_ssh = ssh_until_ok(ssh["port"], ssh["user"], key, known_hosts)
        # What one ssh command costs by itself (process, handshake, command), for scale.
        t_again = time.monotonic()
        ssh_until_ok(ssh["port"], ssh["user"], key, known_hosts)
        extra["ssh_command_ms"] = (time.monotonic() - t_again) * 1000.0
        # The same without OpenSSH's default post-quantum key exchange (sntrup761x25519, which the
        # box's sshd offers first): what that exchange costs the client, for the step table only.
        t_classic = time.monotonic()
        ssh_until_ok(ssh["port"], ssh["user"], key, known_hosts,
                     extra_options=("-o", "KexAlgorithms=curve25519-sha256"))
        extra["ssh_classic_kex_ms"] = (time.monotonic() - t_classic) * 1000.0
    # Moments on the provider's clock (ms since the epoch); the client's SSH success moved onto it.
    moments = {"requested": iso_ms(inst["launch"]["requested_at"])}
    for stage in inst["launch"]["stages"]:
        moments[stage["name"]] = iso_ms(stage["at"])
    moments["client_ssh"] = t0_wall + (t_ssh - t0) * 1000.0
    api.call("DELETE", f"/v1/instances/{iid}")
    for _ in range(600):
        if api.call("GET", f"/v1/instances/{iid}")["state"] == "terminated":
            break
        time.sleep(0.05)
    wait_until_removed(podman, iid)
    steps = {}
    for name, _, a, b in STEPS:
        if a in moments and b in moments:
            steps[name] = max(0.0, moments[b] - moments[a])
    return {"id": iid, "to_running_s": t_running - t0, "to_ssh_s": t_ssh - t0,
            "reported_ready_ms": inst["launch"].get("ready_ms"), "steps_ms": steps, **extra}


def floor_launch(podman, tag, ssh_dir, key, work, env, desktop_ssh_exe=None):
    port = free_port()
    name = f"cardhour-bench-floor-{os.getpid()}"
    known_hosts = os.path.join(work, "floor_known_hosts")
    with open(os.path.join(ssh_dir, "ssh_host_ed25519_key.pub")) as f:
        host_key = " ".join(f.read().split()[:2])
    with open(known_hosts, "w") as f:
        f.write(f"[127.0.0.1]:{port} {host_key}\n")
    desktop = DesktopSsh(desktop_ssh_exe, key) if desktop_ssh_exe else None
    t0 = time.monotonic()
    subprocess.run([podman, "run", "-d", "--rm", "--name", name, "-p", f"127.0.0.1:{port}:22",
                    "-v", f"{ssh_dir}:/etc/cardhour/ssh:ro", tag], check=True, env=env,
                   stdout=subprocess.DEVNULL)
    try:
        if desktop:
            t_ssh, _ = desktop.connect(port, "root", host_key_sha256(host_key))
        else:
            t_ssh = ssh_until_ok(port, "root", key, known_hosts)
    finally:
        if desktop:
            desktop.close()
        subprocess.run([podman, "rm", "-f", "-t", "0", name], env=env, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
    return {"to_ssh_s": t_ssh - t0}


def prepare_keys(work):
    """A client key, and the floor's sshd setup: the same host key and authorized_keys layout
    as an instance."""
    key = os.path.join(work, "id_ed25519")
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", key], check=True)
    ssh_dir = os.path.join(work, "floor-ssh")
    os.makedirs(ssh_dir, mode=0o700)
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f",
                    os.path.join(ssh_dir, "ssh_host_ed25519_key")], check=True)
    shutil.copy(key + ".pub", os.path.join(ssh_dir, "authorized_keys"))
    os.chmod(os.path.join(ssh_dir, "authorized_keys"), 0o600)
    # The box's PID 1 and sshd configuration, as the provider writes them (backend-sim/boot).
    boot = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "backend-sim", "boot")
    for name, mode in (("cardhour-entrypoint", 0o755), ("sshd_config", 0o644)):
        shutil.copy(os.path.join(boot, name), os.path.join(ssh_dir, name))
        os.chmod(os.path.join(ssh_dir, name), mode)
    return key, ssh_dir


def run(sim_exe, runs, warmup=1, image="base", podman="podman", log=print, engine_api="auto",
        desktop_ssh_exe=None):
    """Alternating floor and CardHour launches; returns (rows, log lines of the provider).
    engine_api "off": the provider drives podman through its command line only.
    desktop_ssh_exe: each round also runs the floor and CardHour with the desktop's SSH path."""
    env = dict(os.environ)
    work = tempfile.mkdtemp(prefix="cardhour-bench-launch-")
    key, ssh_dir = prepare_keys(work)
    extra = [] if engine_api == "auto" else ["--engine-api", engine_api]
    sim = Sim(sim_exe, os.path.join(work, "data"), "podman", env=env, extra_args=extra)
    rows = []
    try:
        api = sim.api
        api.sign_up("bench@example.com")
        with open(key + ".pub") as f:
            key_id = api.call("POST", "/v1/ssh-keys", {"name": "bench", "public_key": f.read().strip()})["id"]
        tag = f"localhost/cardhour/{image}:latest"
        for i in range(warmup + runs):
            floor = floor_launch(podman, tag, ssh_dir, key, work, env)
            ours = cardhour_launch(api, key_id, image, key, work, podman)
            if desktop_ssh_exe:
                floor_desktop = floor_launch(podman, tag, ssh_dir, key, work, env, desktop_ssh_exe)
                desktop = cardhour_launch(api, key_id, image, key, work, podman, desktop_ssh_exe)
            if i < warmup:
                continue
            row = {"run": i - warmup + 1, "id": ours["id"], "floor_to_ssh_s": floor["to_ssh_s"],
                   "cardhour_to_running_s": ours["to_running_s"], "cardhour_to_ssh_s": ours["to_ssh_s"],
                   "cardhour_reported_ready_ms": ours["reported_ready_ms"], "steps_ms": ours["steps_ms"],
                   "ssh_command_ms": ours["ssh_command_ms"], "ssh_classic_kex_ms": ours["ssh_classic_kex_ms"]}
            said = f"  launch {row['run']}/{runs}: OpenSSH: floor {floor['to_ssh_s']:.3f} s, CardHour {ours['to_ssh_s']:.3f} s"
            if desktop_ssh_exe:
                row.update({"desktop_id": desktop["id"], "floor_desktop_to_ssh_s": floor_desktop["to_ssh_s"],
                            "desktop_to_running_s": desktop["to_running_s"], "desktop_to_ssh_s": desktop["to_ssh_s"],
                            "desktop_steps_ms": desktop["steps_ms"], "desktop_ssh": desktop["desktop_ssh"]})
                said += (f"; the desktop's SSH: floor {floor_desktop['to_ssh_s']:.3f} s, "
                         f"CardHour {desktop['to_ssh_s']:.3f} s")
            rows.append(row)
            log(said)
    finally:
        sim.stop()
    # The provider's own account of each launch: total and sshd probe time.
    by_id = {m.group(1): m for m in READY_LOG.finditer(sim.log())}
    for row in rows:
        m = by_id.get(row["id"])
        if m:
            row["log_ready_ms"] = int(m.group(2))
            row["log_sshd_answered_ms"] = int(m.group(4))
            row["log_probes"] = int(m.group(5))
    shutil.rmtree(work, ignore_errors=True)
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sim", required=True, help="path to the cardhour-sim binary")
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--warmup", type=int, default=1)
    ap.add_argument("--image", default="base")
    ap.add_argument("--podman", default="podman")
    ap.add_argument("--csv", help="append one row per run to this file")
    ap.add_argument("--engine-api", default="auto", choices=["auto", "off"],
                    help="off: the provider uses podman's command line only (for comparison)")
    ap.add_argument("--desktop-ssh", help="path to cardhour-bench-ssh-first: also launch with the desktop's SSH path")
    args = ap.parse_args()
    rows = run(args.sim, args.runs, args.warmup, args.image, args.podman, engine_api=args.engine_api,
               desktop_ssh_exe=args.desktop_ssh)

    def stats(name):
        values = [r[name] for r in rows]
        return median(values), percentile(values, 95)

    f_med, f_p95 = stats("floor_to_ssh_s")
    r_med, r_p95 = stats("cardhour_to_running_s")
    s_med, s_p95 = stats("cardhour_to_ssh_s")
    print(f"\n{len(rows)} runs, image {args.image}")
    print(f"floor  podman run -> ssh ok     median {f_med:.3f} s  p95 {f_p95:.3f} s")
    print(f"CardHour POST -> running        median {r_med:.3f} s  p95 {r_p95:.3f} s")
    print(f"CardHour POST -> ssh ok         median {s_med:.3f} s  p95 {s_p95:.3f} s")
    print(f"ratio to floor (ssh ok)         median {s_med / f_med:.2f}x")
    if args.desktop_ssh:
        d_med, d_p95 = stats("desktop_to_ssh_s")
        fd_med, _ = stats("floor_desktop_to_ssh_s")
        print(f"desktop's SSH: floor {fd_med:.3f} s, CardHour POST -> ssh ok median {d_med:.3f} s  p95 {d_p95:.3f} s "
              f"({d_med / fd_med:.2f}x)")
    for name, label, _, _ in STEPS:
        values = [r["steps_ms"][name] for r in rows if name in r["steps_ms"]]
        print(f"  step {label}: median {median(values):.0f} ms")
    if args.csv:
        flat = [{k: (json.dumps(v) if isinstance(v, dict) else v) for k, v in r.items()} for r in rows]
        new = not os.path.exists(args.csv)
        with open(args.csv, "a", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=list(flat[0].keys()))
            if new:
                writer.writeheader()
            writer.writerows(flat)


if __name__ == "__main__":
    sys.exit(main())
