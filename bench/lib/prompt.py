"""Benchmark 9: what the user feels, from the launch dialog's Launch button to a shell prompt
painted in the window's terminal tab (the real client, offscreen, against cardhour-sim with
podman), split into its steps.

The client runs with CARDHOUR_BENCH_PROMPT=1 (app/BenchPrompt.cpp): logged in, it opens the
launch dialog from the window's Launch action, clicks its Launch button once it is enabled, opens
the terminal tab as soon as the event stream says the host runs (a user with no reaction time),
and prints the moment of each step. It runs inside tests/core/run-with-keyring (a private D-Bus
session with an unlocked gnome-keyring), so the key it makes at the first launch has its
passphrase in a real keychain and every terminal reads it from there, as a user's does. The
first launch (it makes and uploads that key) is reported apart; the others reuse the key.
"""
import json
import os
import select
import shutil
import subprocess
import tempfile
import time

from client import _isolated_env
from common import Sim, median, percentile

# (name, label, from moment, to moment); moments are ms since the epoch on one machine, the
# provider's launch stages included.
STEPS = [
    ("click_to_requested", "Launch clicked → the provider has the request (dialog accept, request sent)",
     "click", "requested"),
    ("requested_to_image", "request → runtime starts (image stage)", "requested", "image"),
    ("image_to_container", "image stage → container running", "image", "container"),
    ("container_to_ready", "container running → sshd answers the provider's probe (ready)", "container", "ready"),
    ("ready_to_event", "ready → the client hears it runs (event stream)", "ready", "running_event"),
    ("event_to_tab", "running event → terminal tab open", "running_event", "tab_opened"),
    ("tab_to_instance", "tab open → the instance looked up again (GET /v1/instances/{id})", "tab_opened",
     "instance_known"),
    ("instance_to_key", "→ the account's keys listed, one chosen (GET /v1/ssh-keys)", "instance_known", "key_chosen"),
    ("key_to_passphrase", "→ its passphrase read from the keychain", "key_chosen", "passphrase_read"),
    ("passphrase_to_shell", "→ SSH connected, authenticated, shell channel with a PTY open", "passphrase_read",
     "shell_opened"),
    ("shell_to_bytes", "shell open → its first bytes arrive", "shell_opened", "first_bytes"),
    ("bytes_to_painted", "first bytes → a prompt painted in the terminal", "first_bytes", "prompt_painted"),
]


def _read_line(proc, marker, timeout_s, seen):
    """The first stdout line that starts with `marker` (the rest kept in `seen`)."""
    end = time.monotonic() + timeout_s
    while time.monotonic() < end:
        ready, _, _ = select.select([proc.stdout], [], [], 0.5)
        if not ready:
            if proc.poll() is not None:
                break
            continue
        line = proc.stdout.readline()
        if not line:
            break
        seen.append(line)
        if line.startswith(marker):
            return line[len(marker):].strip()
    raise RuntimeError(f"the client printed no '{marker.strip()}' line within {timeout_s} s: "
                       + "".join(seen)[-800:])


def _steps(run):
    moments = dict(run["moments"])
    moments["requested"] = run["requested_at"]
    moments.update(run["stages"])
    steps = {}
    for name, _, a, b in STEPS:
        if moments.get(a) is not None and moments.get(b) is not None:
            steps[name] = max(0.0, moments[b] - moments[a])
    total = moments["prompt_painted"] - moments["click"]
    return steps, total


def _remove(api, podman, iid):
    from launch_to_ssh import wait_until_removed  # noqa: E402 (benchmark 1's helper)
    api.call("DELETE", f"/v1/instances/{iid}")
    for _ in range(600):
        if api.call("GET", f"/v1/instances/{iid}")["state"] == "terminated":
            break
        time.sleep(0.05)
    wait_until_removed(podman, iid)


def run(sim_exe, client_exe, runs, warmup=1, podman="podman", log=print):
    """Returns {"first": the first launch (a key made), "runs": [...]}; each run has its steps
    in ms and its total (click → prompt painted) in s."""
    work = tempfile.mkdtemp(prefix="cardhour-bench-prompt-")
    env = _isolated_env(work)
    sim = Sim(sim_exe, os.path.join(work, "sim"), "podman", env=dict(os.environ))
    client = None
    out = {"runs": []}
    try:
        sim.api.sign_up("prompt@example.com")
        login = os.path.join(work, "login")
        with open(login, "w") as f:
            f.write("prompt@example.com\nbench-password\n")
        os.chmod(login, 0o600)
        env["CARDHOUR_BENCH_LOGIN_FILE"] = login
        env["CARDHOUR_BENCH_PROMPT"] = "1"
        wrapper = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                               "tests", "core", "run-with-keyring")
        client_err = os.path.join(work, "client.err")
        client = subprocess.Popen([wrapper, client_exe, "--provider", f"http://127.0.0.1:{sim.port}"], env=env,
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=open(client_err, "w"),
                                  text=True, bufsize=1)
        seen = []
        for i in range(1 + warmup + runs):
            try:
                result = json.loads(_read_line(client, "cardhour-bench prompt ", 120, seen))
            except RuntimeError as error:
                with open(client_err, errors="replace") as f:
                    raise RuntimeError(f"{error}; the client's stderr: {f.read()[-1500:]}") from None
            _remove(sim.api, podman, result["id"])
            client.stdin.write("next\n")
            client.stdin.flush()
            steps, total = _steps(result)
            row = {"steps_ms": steps, "total_s": total / 1000.0, "ssh_connect_ms": result["ssh_connect_ms"],
                   "ssh_auth_ms": result["ssh_auth_ms"]}
            if i == 0:
                out["first"] = row
                log(f"  first launch (makes and uploads a key): click → prompt {total:.0f} ms")
            elif i > warmup:
                out["runs"].append(row)
                log(f"  launch {len(out['runs'])}/{runs}: click → prompt {total:.0f} ms")
    finally:
        if client and client.poll() is None:
            try:
                client.stdin.write("quit\n")
                client.stdin.flush()
                client.wait(10)
            except (OSError, subprocess.TimeoutExpired):
                client.kill()
                client.wait()
        sim.stop()
        shutil.rmtree(work, ignore_errors=True)
    return out


def step_table(runs):
    """(label, median ms, p95 ms) per step, and the median total in ms."""
    table = []
    for name, label, _, _ in STEPS:
        values = [r["steps_ms"][name] for r in runs if name in r["steps_ms"]]
        if values:
            table.append((label, median(values), percentile(values, 95)))
    return table, median([r["total_s"] * 1000 for r in runs])
