"""How many flows share the busiest link when each flow of a connection matrix takes one path, drawn uniformly among
its paths, on htsim's default three-tier fat tree (as both htsim_uec's per-hop hash and trimswitch's per-flow hash
draw it): the share of draws in which the busiest link carries k flows. On one path each, a flow's finish is about k
times one flow's transfer time, so this is the spread one seed's tail is drawn from.

    python3 bench/uet/single_path_load.py MATRIX [DRAWS] [HOSTS_PER_RACK RACKS_PER_POD AGGS_PER_POD UPLINKS_PER_AGG]
    (default: 1000 draws on the 1024-host tree: 8 hosts a rack, 8 racks and 8 aggregation switches a pod, 8 uplinks each)
"""
import collections
import random
import sys


def flows_of(matrix):
    found = []
    for line in open(matrix, encoding="utf-8"):
        words = line.split()
        if words and "->" in words[0]:
            src, dst = words[0].split("->")
            found.append((int(src), int(dst)))
    return found


def links(src, dst, shape, draw):
    """The directed links one flow's path crosses, its aggregation switch and core link drawn by draw."""
    hosts, racks, aggs, uplinks = shape
    rack_from, rack_to = src // hosts, dst // hosts
    if rack_from == rack_to:
        return [("host down", dst)]
    pod_from, pod_to = rack_from // racks, rack_to // racks
    agg = draw.randrange(aggs)
    if pod_from == pod_to:
        return [("rack up", rack_from, agg), ("agg down", pod_to, agg, rack_to)]
    core = draw.randrange(uplinks)
    return [("rack up", rack_from, agg), ("agg up", pod_from, agg, core), ("core down", agg, core, pod_to),
            ("agg down", pod_to, agg, rack_to)]


def main():
    if len(sys.argv) not in (2, 3, 7):
        print(__doc__.strip().splitlines()[-2].strip(), file=sys.stderr)
        return 2
    try:
        flows = flows_of(sys.argv[1])
        draws = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
        shape = tuple(int(v) for v in sys.argv[3:7]) if len(sys.argv) == 7 else (8, 8, 8, 8)
    except (OSError, ValueError) as e:
        print(f"single_path_load: {e}", file=sys.stderr)
        return 2
    if draws < 1 or min(shape) < 1 or not flows:
        print("single_path_load: needs at least one draw, one flow and a tree of positive sizes", file=sys.stderr)
        return 2
    busiest = collections.Counter()
    for n in range(draws):
        draw = random.Random(n)
        load = collections.Counter()
        for src, dst in flows:
            for link in links(src, dst, shape, draw):
                load[link] += 1
        busiest[max(load.values())] += 1
    print(f"{len(flows)} flows, {draws} draws: flows on the busiest link, share of draws")
    for k, count in sorted(busiest.items()):
        print(f"{k:3d}  {100 * count / draws:5.1f} %")
    return 0


if __name__ == "__main__":
    sys.exit(main())
