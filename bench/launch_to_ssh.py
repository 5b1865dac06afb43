#!/usr/bin/env python3
"""Launch to SSH-ready, against its floor, in the same run.

CardHour: POST /v1/instances on a real cardhour-sim (podman runtime) until the first command
over OpenSSH succeeds (StrictHostKeyChecking=yes, known_hosts pinned from the API's host key).
Floor: a bare `podman run -d` of the same image with the same sshd setup, then the same ssh loop.
Runs alternate (floor, CardHour, floor, ...) so that noise on a shared machine hits both alike.

Prints a table and, with --csv, appends one row per run to that file.
"""
import argparse
import base64
import csv
import hashlib
import http.client
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time


def percentile(values, p):
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    k = (len(ordered) - 1) * p / 100.0
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


class Api:
    def __init__(self, port):
        self.port = port
        self.token = None

    def call(self, method, path, body=None):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
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


def ssh_until_ok(port, user, key, known_hosts, deadline_s=60):
    """Runs `true` over ssh until it succeeds; returns the time of success."""
    cmd = ["ssh", "-q", "-p", str(port), "-i", key, "-o", "UserKnownHostsFile=" + known_hosts,
           "-o", "StrictHostKeyChecking=yes", "-o", "BatchMode=yes", "-o", "ConnectTimeout=5",
           "-o", "ConnectionAttempts=1", "-o", "LogLevel=ERROR", f"{user}@127.0.0.1", "true"]
    end = time.monotonic() + deadline_s
    while time.monotonic() < end:
        if subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL).returncode == 0:
            return time.monotonic()
        time.sleep(0.02)
    raise RuntimeError(f"ssh to port {port} did not succeed within {deadline_s} s")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_sim(sim, data_dir, env):
    proc = subprocess.Popen([sim, "--listen", "127.0.0.1:0", "--data", data_dir, "--runtime", "podman"],
                            stdout=subprocess.PIPE, stderr=open(os.path.join(data_dir, "sim.err"), "w"),
                            env=env, text=True)
    line = proc.stdout.readline()
    if not line.startswith("listening"):
        proc.kill()
        raise RuntimeError("cardhour-sim did not start: " + open(os.path.join(data_dir, "sim.err")).read()[-2000:])
    return proc, int(line.strip().rsplit(":", 1)[1])


def cardhour_launch(api, key_id, image, key, work):
    t0 = time.monotonic()
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
    known_hosts = os.path.join(work, "known_hosts")
    with open(known_hosts, "w") as f:
        f.write(f"[127.0.0.1]:{ssh['port']} {ssh['host_key']}\n")
    t_ssh = ssh_until_ok(ssh["port"], ssh["user"], key, known_hosts)
    reported = inst.get("launch", {}).get("ready_ms")
    api.call("DELETE", f"/v1/instances/{iid}")
    for _ in range(600):
        if api.call("GET", f"/v1/instances/{iid}")["state"] == "terminated":
            break
        time.sleep(0.05)
    return {"to_running_s": t_running - t0, "to_ssh_s": t_ssh - t0, "reported_ready_ms": reported}


def floor_launch(podman, tag, ssh_dir, key, work, env):
    port = free_port()
    name = f"cardhour-bench-floor-{os.getpid()}"
    known_hosts = os.path.join(work, "floor_known_hosts")
    with open(os.path.join(ssh_dir, "ssh_host_ed25519_key.pub")) as f:
        host_key = " ".join(f.read().split()[:2])
    with open(known_hosts, "w") as f:
        f.write(f"[127.0.0.1]:{port} {host_key}\n")
    t0 = time.monotonic()
    subprocess.run([podman, "run", "-d", "--rm", "--name", name, "-p", f"127.0.0.1:{port}:22",
                    "-v", f"{ssh_dir}:/etc/cardhour/ssh:ro", tag], check=True, env=env,
                   stdout=subprocess.DEVNULL)
    t_ssh = ssh_until_ok(port, "root", key, known_hosts)
    subprocess.run([podman, "rm", "-f", "-t", "0", name], env=env, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    return {"to_ssh_s": t_ssh - t0}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sim", required=True, help="path to the cardhour-sim binary")
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--warmup", type=int, default=1)
    ap.add_argument("--image", default="base")
    ap.add_argument("--podman", default="podman")
    ap.add_argument("--csv", help="append one row per run to this file")
    args = ap.parse_args()

    env = dict(os.environ)
    work = tempfile.mkdtemp(prefix="cardhour-bench-launch-")
    key = os.path.join(work, "id_ed25519")
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", key], check=True)
    # The floor's sshd setup: the same image, host key and authorized_keys layout as an instance.
    ssh_dir = os.path.join(work, "floor-ssh")
    os.makedirs(ssh_dir, mode=0o700)
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f",
                    os.path.join(ssh_dir, "ssh_host_ed25519_key")], check=True)
    shutil.copy(key + ".pub", os.path.join(ssh_dir, "authorized_keys"))
    os.chmod(os.path.join(ssh_dir, "authorized_keys"), 0o600)

    data_dir = os.path.join(work, "data")
    os.makedirs(data_dir)
    sim, port = start_sim(args.sim, data_dir, env)
    rows = []
    try:
        api = Api(port)
        api.token = api.call("POST", "/v1/auth/signup", {"email": "bench@example.com",
                                                        "password": "bench-password"})["token"]
        api.call("POST", "/v1/billing/topup", {"amount_micros": 1_000_000_000})
        with open(key + ".pub") as f:
            key_id = api.call("POST", "/v1/ssh-keys", {"name": "bench", "public_key": f.read().strip()})["id"]
        tag = f"localhost/cardhour/{args.image}:latest"
        for i in range(args.warmup + args.runs):
            floor = floor_launch(args.podman, tag, ssh_dir, key, work, env)
            ours = cardhour_launch(api, key_id, args.image, key, work)
            if i < args.warmup:
                continue
            row = {"run": i - args.warmup + 1, "floor_to_ssh_s": round(floor["to_ssh_s"], 4),
                   "cardhour_to_running_s": round(ours["to_running_s"], 4),
                   "cardhour_to_ssh_s": round(ours["to_ssh_s"], 4),
                   "cardhour_reported_ready_ms": ours["reported_ready_ms"]}
            rows.append(row)
            print(json.dumps(row), flush=True)
    finally:
        sim.terminate()
        sim.wait(30)

    def stats(key_name):
        values = [r[key_name] for r in rows]
        return statistics.median(values), percentile(values, 95)

    f_med, f_p95 = stats("floor_to_ssh_s")
    r_med, r_p95 = stats("cardhour_to_running_s")
    s_med, s_p95 = stats("cardhour_to_ssh_s")
    print(f"\n{len(rows)} runs, image {args.image}")
    print(f"floor  podman run -> ssh ok     median {f_med:.3f} s  p95 {f_p95:.3f} s")
    print(f"CardHour POST -> running        median {r_med:.3f} s  p95 {r_p95:.3f} s")
    print(f"CardHour POST -> ssh ok         median {s_med:.3f} s  p95 {s_p95:.3f} s")
    print(f"ratio to floor (ssh ok)         median {s_med / f_med:.2f}x")
    if args.csv:
        new = not os.path.exists(args.csv)
        with open(args.csv, "a", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
            if new:
                writer.writeheader()
            writer.writerows(rows)
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
