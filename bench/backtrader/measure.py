"""Runs one command as a child process and prints what it cost, as one JSON line on stdout.

Used by bench/backtrader-compare.bench.ts to time tcs and backtrader the same way: the whole
process, start-up included. wall: from spawn to exit. cpu: user + system time of the child and every
descendant it waited for (tcs simulate runs the simulation in a child Node process of its own).
max_rss_kb: the largest resident set of any of them (getrusage RUSAGE_CHILDREN, Linux reports kB).
The command's own stdout and stderr go to <log file>.

Usage: python3 measure.py <log file> <command> [args...]
"""
import json
import resource
import subprocess
import sys
import time


def main():
    log, command = sys.argv[1], sys.argv[2:]
    with open(log, "wb") as out:
        started = time.perf_counter()
        code = subprocess.run(command, stdout=out, stderr=subprocess.STDOUT).returncode
        wall = time.perf_counter() - started
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(json.dumps({"code": code, "wall_s": wall, "cpu_s": usage.ru_utime + usage.ru_stime,
                      "max_rss_kb": usage.ru_maxrss}))


if __name__ == "__main__":
    main()
