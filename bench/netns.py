"""Hosts on one Linux machine for bench/multihost.py: a network namespace each, on one bridge
that lives in a namespace of its own, so that no packet touches the machine's own network.

Needs root (`ip netns`). Every namespace is named `<tag>-<host>`, the tag being `mhb<pid>`;
`Lab.close()` ends the processes started in them (by the pids `ip netns pids` lists, all of
them started by this lab) and deletes the namespaces; `remove_stale_labs()` does the same for
the labs of runs whose process is gone (a run killed with SIGKILL cannot clean up after itself).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import re
import signal
import subprocess
import time
from pathlib import Path

PREFIX = "mhb"
CLONE_NEWNET = 0x40000000
LAB_NAME = re.compile(rf"^{PREFIX}(\d+)-\S+")


def ip(*args: str) -> str:
    done = subprocess.run(["ip", *args], capture_output=True, text=True)
    if done.returncode:
        raise RuntimeError(f"ip {' '.join(args)}: {done.stderr.strip()}")
    return done.stdout


def namespaces() -> list[str]:
    return [line.split()[0] for line in ip("netns", "list").splitlines() if line.strip()]


def pids_in(namespace: str) -> list[int]:
    try:
        return [int(pid) for pid in ip("netns", "pids", namespace).split()]
    except RuntimeError:
        return []


def parent_of(pid: int) -> int | None:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    return int(re.search(r"^PPid:\s+(\d+)", status, re.MULTILINE).group(1))


def end_processes(namespace: str, grace: float = 5.0) -> None:
    """SIGTERM to the namespace's top processes (a server's master, which stops its own
    workers), then to everything left, SIGKILL to what is left after that."""
    own = os.getpid()
    rounds = (
        (signal.SIGTERM, grace, True),
        (signal.SIGTERM, grace, False),
        (signal.SIGKILL, 2.0, False),
    )
    for sig, wait, top_only in rounds:
        pids = [pid for pid in pids_in(namespace) if pid != own]
        if not pids:
            return
        if top_only:
            pids = [pid for pid in pids if parent_of(pid) not in pids]
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, sig)
        deadline = time.monotonic() + wait
        while set(pids_in(namespace)) - {own} and time.monotonic() < deadline:
            time.sleep(0.1)


def delete_namespace(namespace: str) -> None:
    end_processes(namespace)
    with contextlib.suppress(RuntimeError):
        ip("netns", "delete", namespace)


def remove_stale_labs() -> list[str]:
    """Delete the namespaces of earlier runs whose process no longer exists; their names."""
    removed = []
    for namespace in namespaces():
        match = LAB_NAME.match(namespace)
        if match and not Path(f"/proc/{match.group(1)}").exists():
            delete_namespace(namespace)
            removed.append(namespace)
    return removed


def cpu_seconds(pids: list[int]) -> dict[int, float]:
    """User and system CPU of each of these processes so far (its reaped children's too)."""
    ticks = os.sysconf("SC_CLK_TCK")
    used = {}
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except (FileNotFoundError, ProcessLookupError):
            continue
        # After the command: state is fields[0]; utime, stime, cutime, cstime are 11-14.
        used[pid] = sum(int(value) for value in fields[11:15]) / ticks
    return used


def machine_busy_seconds() -> float:
    """CPU seconds the whole machine spent busy (every process, not only the lab's)."""
    ticks = os.sysconf("SC_CLK_TCK")
    values = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    idle = values[3] + values[4]  # idle, iowait
    return (sum(values[:8]) - idle) / ticks


class Lab:
    """Namespaces on a bridge, 10.77.0.0/24; `add_host` gives each its address."""

    def __init__(self, subnet: str = "10.77.0") -> None:
        self.tag = f"{PREFIX}{os.getpid()}"
        self.subnet = subnet
        self.bridge = f"{self.tag}-lan"
        self.hosts: dict[str, str] = {}  # host name -> address
        self.created: list[str] = []
        self._home_netns: int | None = None

    def namespace(self, host: str) -> str:
        return f"{self.tag}-{host}"

    def open(self) -> None:
        self._add_namespace(self.bridge)
        ip("-n", self.bridge, "link", "add", "br0", "type", "bridge")
        ip("-n", self.bridge, "link", "set", "br0", "up")

    def _add_namespace(self, name: str) -> None:
        ip("netns", "add", name)
        self.created.append(name)
        ip("-n", name, "link", "set", "lo", "up")

    def add_host(self, host: str, last_octet: int) -> str:
        """A namespace with eth0 on the bridge; its address."""
        namespace = self.namespace(host)
        address = f"{self.subnet}.{last_octet}"
        self._add_namespace(namespace)
        port = f"v{last_octet}"  # the bridge's end, named within the bridge's namespace
        ip("-n", namespace, "link", "add", "eth0", "type", "veth", "peer", "name", port)
        ip("-n", namespace, "link", "set", port, "netns", self.bridge)
        ip("-n", self.bridge, "link", "set", port, "master", "br0")
        ip("-n", self.bridge, "link", "set", port, "up")
        ip("-n", namespace, "addr", "add", f"{address}/24", "dev", "eth0")
        ip("-n", namespace, "link", "set", "eth0", "up")
        self.hosts[host] = address
        return address

    def start(self, host: str, command: list[str], log: Path, **popen) -> subprocess.Popen:
        """The command in the host's namespace, in a session of its own (so that a signal to
        its group reaches a server's workers too), its output to `log`."""
        with open(log, "ab") as output:
            return subprocess.Popen(
                ["ip", "netns", "exec", self.namespace(host), *command],
                stdout=output,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                **popen,
            )

    def enter(self, host: str) -> None:
        """Move this process's network (the calling thread's, and every thread it starts
        afterwards) into the host's namespace. Call it before starting any thread."""
        libc = ctypes.CDLL(None, use_errno=True)
        if self._home_netns is None:
            self._home_netns = os.open("/proc/self/ns/net", os.O_RDONLY)
        target = os.open(f"/run/netns/{self.namespace(host)}", os.O_RDONLY)
        try:
            if libc.setns(target, CLONE_NEWNET) != 0:
                raise OSError(ctypes.get_errno(), "setns failed")
        finally:
            os.close(target)

    def cpu_seconds(self, host: str) -> dict[int, float]:
        return cpu_seconds(pids_in(self.namespace(host)))

    def close(self) -> None:
        """End every process in the lab's namespaces and delete them; back to the machine's
        own network."""
        if self._home_netns is not None:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.setns(self._home_netns, CLONE_NEWNET)
            os.close(self._home_netns)
            self._home_netns = None
        for name in reversed(self.created):
            delete_namespace(name)
        self.created.clear()
