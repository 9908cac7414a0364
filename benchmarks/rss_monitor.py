"""Run a command and report its peak memory and that of its child processes.

The client's peak and each dask worker's are what issue 23 asks for (the client under
2 GiB): this samples the resident memory of the command and of every process it starts,
every 0.2 s (``psutil``, installed with ``distributed``), and prints, when it ends, the wall
time, the CPU seconds of all of them, the client's peak, the workers' peaks and the
largest sum::

    python benchmarks/rss_monitor.py wetland-gis assess impacts.parquet --context ctx \\
        --as-of 2024-05-01 --out out/a.parquet --engine dask --quiet

A sample can miss a peak shorter than 0.2 s.
"""

from __future__ import annotations

import resource
import subprocess
import sys
import time

import psutil

GIB = 2**30


def main(argv: list[str]) -> int:
    t0 = time.perf_counter()
    proc = subprocess.Popen(argv)
    client = psutil.Process(proc.pid)
    peak_client, peak_sum = 0, 0
    peak_child: dict[int, int] = {}
    while proc.poll() is None:
        try:
            rss = client.memory_info().rss
            peak_client, total = max(peak_client, rss), rss
            for child in client.children(recursive=True):
                try:
                    r = child.memory_info().rss
                except psutil.Error:
                    continue
                peak_child[child.pid] = max(peak_child.get(child.pid, 0), r)
                total += r
            peak_sum = max(peak_sum, total)
        except psutil.Error:
            pass
        time.sleep(0.2)
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    workers = [round(v / GIB, 2) for v in sorted(peak_child.values(), reverse=True)[:4]]
    print(
        f"exit {proc.returncode}, wall {time.perf_counter() - t0:.1f} s, "
        f"cpu (all processes) {ru.ru_utime + ru.ru_stime:.1f} s, "
        f"client peak {peak_client / GIB:.2f} GiB, worker peaks {workers} GiB, "
        f"largest sum {peak_sum / GIB:.2f} GiB",
        file=sys.stderr,
    )
    return proc.returncode


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
