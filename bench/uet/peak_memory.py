"""Where a process's peak resident memory is: runs a command, reads its /proc/PID/smaps every few milliseconds, and
prints the largest total it saw, by mapping: each file by name (the AOT cache, libjvm.so ...), the anonymous ones by
size (the Java heap is one reservation of 64 MB or more; malloc arenas, metaspace, code cache and stacks are smaller).

    python3 bench/uet/peak_memory.py cli/trimswitch fabric --matrix M --transport uet ...

A run shorter than one sample shows nothing; /usr/bin/time's peak (%M) is the exact total, this the breakdown.
"""
import collections
import os
import subprocess
import sys
import time

LARGE = 64 << 20
SMALL = 1 << 20


def by_mapping(smaps):
    """The resident KB of one smaps text, grouped: file mappings by base name, anonymous ones by size."""
    groups, name = collections.Counter(), None
    for line in smaps.splitlines():
        words = line.split()
        if not words:
            continue
        if "-" in words[0] and not words[0].endswith(":"):
            start, end = (int(part, 16) for part in words[0].split("-"))
            size = end - start
            name = os.path.basename(words[5]) if len(words) > 5 else (
                "[anonymous, 64 MB or more]" if size >= LARGE else "[anonymous, 1-64 MB]" if size >= SMALL else "[anonymous, under 1 MB]")
        elif words[0] == "Rss:" and name is not None:
            groups[name] += int(words[1])
    return groups


def peak(command, interval=0.003):
    """The command's exit code and its largest sampled breakdown."""
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    best = collections.Counter()
    while process.poll() is None:
        try:
            with open(f"/proc/{process.pid}/smaps", encoding="utf-8") as smaps:
                groups = by_mapping(smaps.read())
        except OSError:
            break
        if sum(groups.values()) > sum(best.values()):
            best = groups
        time.sleep(interval)
    return process.wait(), best


def main():
    if len(sys.argv) < 2:
        print("peak_memory: give the command to run", file=sys.stderr)
        return 2
    code, best = peak(sys.argv[1:])
    print(f"peak sampled resident memory: {sum(best.values()) / 1024:.1f} MB (exit {code})")
    for name, kb in best.most_common(12):
        print(f"{kb / 1024:8.1f} MB  {name}")
    return code


if __name__ == "__main__":
    sys.exit(main())
